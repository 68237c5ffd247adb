import type { Command } from 'commander';
import type { Services } from '../services/index.js';
import { MAX_PAGE_SIZE } from '../domain/pagination.js';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import { currency, nonNegativeInt, positiveInt } from './arguments.js';
import { withServices } from './context.js';
import { COLUMNS } from './columns.js';
import { formatOption, print, printOne, type Format } from './output.js';

const all = { afterId: 0, limit: MAX_PAGE_SIZE };

/** The ids of the partners already called `name`, over every page. */
async function partnersNamed(services: Services, name: string): Promise<number[]> {
  const ids: number[] = [];
  for (let afterId = 0; ;) {
    const page = await services.catalog.listPartners({ afterId, limit: MAX_PAGE_SIZE });
    ids.push(...page.items.filter((partner) => partner.name === name).map((partner) => partner.id));
    const last = page.items.at(-1);
    if (page.nextCursor === null || last === undefined) return ids;
    afterId = last.id;
  }
}

/** `gatehouse partner|gym|product …` */
export function addCatalogCommands(program: Command): void {
  const partner = program.command('partner').description('partners: the gym chains that validate members');
  partner
    .command('create <name>')
    .description('create a partner')
    .option('--sandbox', 'a sandbox partner: ghk_test_ keys, visits never in payouts')
    .addOption(formatOption())
    .action((name: string, options: { format: Format; sandbox?: boolean }) =>
      withServices(async (services) => {
        const namesakes = await partnersNamed(services, name);
        const created = await services.catalog.createPartner(name, undefined, options.sandbox === true);
        printOne(presentPartner(created), options.format);
        // Names may repeat (ids are what every other command takes), but a repeat is usually a second run.
        if (namesakes.length > 0) {
          process.stderr.write(
            `gatehouse: note: a partner named "${name}" already exists (id ${namesakes.join(', ')}); ` +
              `this one is id ${created.id}\n`,
          );
        }
      }),
    );
  partner
    .command('list')
    .description('list partners (the first 1000)')
    .addOption(formatOption())
    .action((options: { format: Format }) =>
      withServices(async (services) => {
        print(
          (await services.catalog.listPartners(all)).items.map(presentPartner),
          options.format,
          COLUMNS.partner,
        );
      }),
    );

  const gym = program
    .command('gym')
    .description("gyms: a partner's units; the id is the X-Gym-Id partners send");
  gym
    .command('create')
    .description('create a gym')
    .requiredOption('--partner <id>', 'the partner that manages it', positiveInt)
    .requiredOption('--name <name>', 'its name')
    .option('--id <id>', 'the provider-assigned gym id (default: the next free one)', positiveInt)
    .option('--timezone <iana>', 'its local days for the daily visit limit (default: GATEHOUSE_TIMEZONE)')
    .addOption(formatOption())
    .action((options: { partner: number; name: string; id?: number; timezone?: string; format: Format }) =>
      withServices(async (services) => {
        const created = await services.catalog.createGym({
          partnerId: options.partner,
          name: options.name,
          ...(options.id === undefined ? {} : { id: options.id }),
          ...(options.timezone === undefined ? {} : { timezone: options.timezone }),
        });
        printOne(presentGym(created), options.format);
      }),
    );
  gym
    .command('list')
    .description('list gyms (the first 1000)')
    .option('--partner <id>', "only this partner's", positiveInt)
    .addOption(formatOption())
    .action((options: { partner?: number; format: Format }) =>
      withServices(async (services) => {
        const filter = options.partner === undefined ? {} : { partnerId: options.partner };
        print(
          (await services.catalog.listGyms(filter, all)).items.map(presentGym),
          options.format,
          COLUMNS.gym,
        );
      }),
    );

  const product = program
    .command('product')
    .description('products: what a check-in is for, and what it pays');
  product
    .command('create')
    .description('create a product of a gym')
    .requiredOption('--gym <id>', 'the gym', positiveInt)
    .requiredOption('--description <text>', 'shown to front-desk staff after validation')
    .option('--payout-cents <cents>', 'what each validated visit pays the gym (default 0)', nonNegativeInt)
    .option('--currency <code>', 'ISO currency (default GATEHOUSE_CURRENCY)', currency)
    .option('--id <id>', 'the product id (default: the next free one)', positiveInt)
    .addOption(formatOption())
    .action(
      (options: {
        gym: number;
        description: string;
        payoutCents?: number;
        currency?: string;
        id?: number;
        format: Format;
      }) =>
        withServices(async (services) => {
          const created = await services.catalog.createProduct(options.gym, {
            description: options.description,
            ...(options.payoutCents === undefined ? {} : { payoutCents: options.payoutCents }),
            ...(options.currency === undefined ? {} : { currency: options.currency }),
            ...(options.id === undefined ? {} : { id: options.id }),
          });
          printOne(presentProduct(created), options.format);
        }),
    );
  product
    .command('list')
    .description('list the products of a gym')
    .requiredOption('--gym <id>', 'the gym', positiveInt)
    .addOption(formatOption())
    .action((options: { gym: number; format: Format }) =>
      withServices(async (services) => {
        const gymRecord = await services.catalog.getGym(options.gym);
        print(
          (await services.catalog.listProducts(gymRecord.id)).map(presentProduct),
          options.format,
          COLUMNS.product,
        );
      }),
    );
}
