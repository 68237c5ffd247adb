import type { Command } from 'commander';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import type { GymChange, ProductChange } from '../services/catalog-change-service.js';
import type { Services } from '../services/index.js';
import { currency, nonNegativeInt } from './arguments.js';
import { subcommand } from './gatehouse-command.js';
import { recordId } from './options.js';
import type { Row } from './output.js';

/** A command that ends a record's active life: the record stays, for the ledger and the audit. */
interface Ending {
  readonly record: 'partner' | 'gym' | 'product';
  readonly verb: 'offboard' | 'retire';
  readonly description: string;
  readonly end: (services: Services, id: number) => Promise<Row>;
}

/** `partner offboard`, `gym retire`, `product retire`: each takes the record's id, prints it as it now stands. */
const ENDINGS: readonly Ending[] = [
  {
    record: 'partner',
    verb: 'offboard',
    description: 'offboard a partner: its keys revoked, webhooks disabled, gyms retired; its ledger stays',
    end: async (services, id) => presentPartner(await services.catalogChanges.offboardPartner(id)),
  },
  {
    record: 'gym',
    verb: 'retire',
    description: 'retire a gym: no new check-ins (pending ones can still be validated until they expire)',
    end: async (services, id) => presentGym(await services.catalogChanges.retireGym(id)),
  },
  {
    record: 'product',
    verb: 'retire',
    description: 'retire a product: no new check-ins for it',
    end: async (services, id) => presentProduct(await services.catalogChanges.retireProduct(id)),
  },
];

/**
 * `partner update|offboard`, `gym update|retire`, `product update|retire`: the catalog over time, as the operator
 * API changes it (audited as the CLI's operator). Added to the commands `addCatalogCommands` made.
 */
export function addCatalogChangeCommands(program: Command): void {
  subcommand(program, 'partner')
    .command('update')
    .description('rename a partner')
    .addArgument(recordId('partner'))
    .requiredOption('--name <name>', 'its new name')
    .printsRecord(async (services, id: number, options: { name: string }) =>
      presentPartner(await services.catalogChanges.updatePartner(id, options.name)),
    );
  subcommand(program, 'gym')
    .command('update')
    .description("rename a gym or change its time zone (the daily visit limit's local day)")
    .addArgument(recordId('gym'))
    .option('--name <name>', 'its new name')
    .option('--timezone <iana>', 'its new time zone, such as America/Sao_Paulo')
    .printsRecord(async (services, id: number, change: GymChange) =>
      presentGym(await services.catalogChanges.updateGym(id, change)),
    );
  subcommand(program, 'product')
    .command('update')
    .description('change a product; a new price applies to validations from then on')
    .addArgument(recordId('product'))
    .option('--description <text>', 'its new description')
    .option('--payout-cents <cents>', 'what a validation pays from now on', nonNegativeInt)
    .option('--currency <code>', 'ISO currency code', currency)
    .printsRecord(async (services, id: number, change: ProductChange) =>
      presentProduct(await services.catalogChanges.updateProduct(id, change)),
    );
  for (const { record, verb, description, end } of ENDINGS) {
    subcommand(program, record)
      .command(verb)
      .description(description)
      .addArgument(recordId(record))
      .printsRecord(end);
  }
}
