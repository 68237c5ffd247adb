import type { Command } from 'commander';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import { currency, nonNegativeInt, positiveInt } from './arguments.js';
import { withServices } from './context.js';
import { formatOption, printOne, type Format } from './output.js';

function subcommands(program: Command, name: string): Command {
  const found = program.commands.find((command) => command.name() === name);
  if (found === undefined) throw new Error(`the ${name} command is added first`);
  return found;
}

/**
 * `partner update|offboard`, `gym update|retire`, `product update|retire`: the catalog over time, as the operator
 * API changes it (audited as the CLI's operator). Added to the commands `addCatalogCommands` made.
 */
export function addCatalogChangeCommands(program: Command): void {
  const partner = subcommands(program, 'partner');
  partner
    .command('update')
    .description('rename a partner')
    .argument('<partner-id>', 'the partner', positiveInt)
    .requiredOption('--name <name>', 'its new name')
    .addOption(formatOption())
    .action((id: number, options: { name: string; format: Format }) =>
      withServices(async (services) => {
        printOne(
          presentPartner(await services.catalogChanges.updatePartner(id, options.name)),
          options.format,
        );
      }),
    );
  partner
    .command('offboard')
    .description('offboard a partner: its keys revoked, webhooks disabled, gyms retired; its ledger stays')
    .argument('<partner-id>', 'the partner', positiveInt)
    .addOption(formatOption())
    .action((id: number, options: { format: Format }) =>
      withServices(async (services) => {
        printOne(presentPartner(await services.catalogChanges.offboardPartner(id)), options.format);
      }),
    );

  const gym = subcommands(program, 'gym');
  gym
    .command('update')
    .description("rename a gym or change its time zone (the daily visit limit's local day)")
    .argument('<gym-id>', 'the gym', positiveInt)
    .option('--name <name>', 'its new name')
    .option('--timezone <iana>', 'its new time zone, such as America/Sao_Paulo')
    .addOption(formatOption())
    .action((id: number, options: { name?: string; timezone?: string; format: Format }) =>
      withServices(async (services) => {
        const { format, ...change } = options;
        printOne(presentGym(await services.catalogChanges.updateGym(id, change)), format);
      }),
    );
  gym
    .command('retire')
    .description('retire a gym: no new check-ins (pending ones can still be validated until they expire)')
    .argument('<gym-id>', 'the gym', positiveInt)
    .addOption(formatOption())
    .action((id: number, options: { format: Format }) =>
      withServices(async (services) => {
        printOne(presentGym(await services.catalogChanges.retireGym(id)), options.format);
      }),
    );

  const product = subcommands(program, 'product');
  product
    .command('update')
    .description('change a product; a new price applies to validations from then on')
    .argument('<product-id>', 'the product', positiveInt)
    .option('--description <text>', 'its new description')
    .option('--payout-cents <cents>', 'what a validation pays from now on', nonNegativeInt)
    .option('--currency <code>', 'ISO currency code', currency)
    .addOption(formatOption())
    .action(
      (
        id: number,
        options: { description?: string; payoutCents?: number; currency?: string; format: Format },
      ) =>
        withServices(async (services) => {
          const { format, ...change } = options;
          printOne(presentProduct(await services.catalogChanges.updateProduct(id, change)), format);
        }),
    );
  product
    .command('retire')
    .description('retire a product: no new check-ins for it')
    .argument('<product-id>', 'the product', positiveInt)
    .addOption(formatOption())
    .action((id: number, options: { format: Format }) =>
      withServices(async (services) => {
        printOne(presentProduct(await services.catalogChanges.retireProduct(id)), options.format);
      }),
    );
}
