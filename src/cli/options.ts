import { Argument, Option } from 'commander';
import { MAX_PAGE_SIZE, type PageRequest } from '../domain/pagination.js';
import { platformId, positiveInt } from './arguments.js';

/*
 * Arguments and options that several commands take in the same words, defined once so that every --help says them
 * alike. Each call makes a new one: commander keeps a parsed value's state on the object.
 */

/** The id of the record a command acts on: `<gym-id>`, "the gym" (or what `description` says). */
export const recordId = (record: string, description = `the ${record}`) =>
  new Argument(`<${record}-id>`, description).argParser(positiveInt);

/** The member a command is about, by platform id. */
export const memberId = () => new Argument('<platform-id>', 'the member (13 digits)').argParser(platformId);

/** `--partner <id>` or `--gym <id>`, required: the partner (or gym) the command acts for. */
export const requiredId = (option: 'partner' | 'gym') =>
  new Option(`--${option} <id>`, `the ${option}`).argParser(positiveInt).makeOptionMandatory();

/** `--partner <id>` or `--gym <id>`, optional: a listing keeps only that partner's (or gym's) records. */
export const onlyOf = (option: 'partner' | 'gym') =>
  new Option(`--${option} <id>`, `only this ${option}'s`).argParser(positiveInt);

/** What a listing command prints: the first page, as large as a page may be. */
export const FIRST_PAGE: PageRequest = { afterId: 0, limit: MAX_PAGE_SIZE };
