import type { CustomCode } from '../domain/entities.js';
import { CustomCodeExistsError, CustomCodeNotFoundError } from '../domain/errors.js';
import {
  deleteCustomCode,
  findCustomCode,
  insertCustomCode,
  updateCustomCode,
  type CodeKey,
} from '../store/custom-code-repository.js';
import type { ServiceDependencies } from './dependencies.js';

/** The member's custom entry code at a gym (spec §4.2–4.4): one per member·gym. */
export function createCustomCodeService({ store, clock }: ServiceDependencies) {
  return {
    async create(key: CodeKey, code: string): Promise<void> {
      if (!(await insertCustomCode(store.db, key, code, clock.now()))) throw new CustomCodeExistsError();
    },

    async update(key: CodeKey, code: string): Promise<void> {
      if (!(await updateCustomCode(store.db, key, code, clock.now()))) throw new CustomCodeNotFoundError();
    },

    async remove(key: CodeKey): Promise<void> {
      if (!(await deleteCustomCode(store.db, key))) throw new CustomCodeNotFoundError();
    },

    async get(key: CodeKey): Promise<CustomCode> {
      const code = await findCustomCode(store.db, key);
      if (code === undefined) throw new CustomCodeNotFoundError();
      return code;
    },
  };
}

export type CustomCodeService = ReturnType<typeof createCustomCodeService>;
