import type { Command } from 'commander';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import type { GymChange, ProductChange } from '../services/catalog-change-service.js';
import { currency, nonNegativeInt } from './arguments.js';
import { subcommand } from './gatehouse-command.js';
import { recordId } from './options.js';

/**
 * `partner update|offboard`, `gym update|retire`, `product update|retire`: the catalog over time, as the operator
 * API changes it (audited as the CLI's operator). Added to the commands `addCatalogCommands` made.
 */
export function addCatalogChangeCommands(program: Command): void {
  const partner = subcommand(program, 'partner');
  partner
    .command('update')
    .description('rename a partner')
    .addArgument(recordId('partner'))
    .requiredOption('--name <name>', 'its new name')
    .printsRecord(async (services, id: number, options: { name: string }) =>
      presentPartner(await services.catalogChanges.updatePartner(id, options.name)),
    );
  partner
    .command('offboard')
    .description('offboard a partner: its keys revoked, webhooks disabled, gyms retired; its ledger stays')
    .addArgument(recordId('partner'))
    .printsRecord(async (services, id: number) =>
      presentPartner(await services.catalogChanges.offboardPartner(id)),
    );

  const gym = subcommand(program, 'gym');
  gym
    .command('update')
    .description("rename a gym or change its time zone (the daily visit limit's local day)")
    .addArgument(recordId('gym'))
    .option('--name <name>', 'its new name')
    .option('--timezone <iana>', 'its new time zone, such as America/Sao_Paulo')
    .printsRecord(async (services, id: number, change: GymChange) =>
      presentGym(await services.catalogChanges.updateGym(id, change)),
    );
  gym
    .command('retire')
    .description('retire a gym: no new check-ins (pending ones can still be validated until they expire)')
    .addArgument(recordId('gym'))
    .printsRecord(async (services, id: number) => presentGym(await services.catalogChanges.retireGym(id)));

  const product = subcommand(program, 'product');
  product
    .command('update')
    .description('change a product; a new price applies to validations from then on')
    .addArgument(recordId('product'))
    .option('--description <text>', 'its new description')
    .option('--payout-cents <cents>', 'what a validation pays from now on', nonNegativeInt)
    .option('--currency <code>', 'ISO currency code', currency)
    .printsRecord(async (services, id: number, change: ProductChange) =>
      presentProduct(await services.catalogChanges.updateProduct(id, change)),
    );
  product
    .command('retire')
    .description('retire a product: no new check-ins for it')
    .addArgument(recordId('product'))
    .printsRecord(async (services, id: number) =>
      presentProduct(await services.catalogChanges.retireProduct(id)),
    );
}
