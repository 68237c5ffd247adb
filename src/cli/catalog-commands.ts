import type { Services } from '../services/index.js';
import { MAX_PAGE_SIZE } from '../domain/pagination.js';
import { presentGym, presentPartner, presentProduct } from '../presenters/records.js';
import { currency, nonNegativeInt, positiveInt } from './arguments.js';
import { given } from '../domain/given.js';
import { withServices } from './context.js';
import { COLUMNS } from './columns.js';
import { formatOption, printOne, type Format } from './output.js';
import type { GatehouseCommand } from './gatehouse-command.js';
import { FIRST_PAGE, onlyOf, requiredId } from './options.js';

interface ProductOptions {
  gym: number;
  description: string;
  payoutCents?: number;
  currency?: string;
  id?: number;
}

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

const [ID, NAME, ...REST] = COLUMNS.partner;
/** `partner list` marks sandbox partners in a column of its own, beside the name. */
const PARTNER_LIST_COLUMNS = [ID, NAME, 'sandbox', ...REST];

/** `gatehouse partner|gym|product …` */
export function addCatalogCommands(program: GatehouseCommand): void {
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
    .printsRecords(
      PARTNER_LIST_COLUMNS,
      async (services) => (await services.catalog.listPartners(FIRST_PAGE)).items.map(presentPartner),
      // A table and a CSV say of every partner whether it is a sandbox one; JSON as the API answers it.
      (row) => ({ ...row, sandbox: row.sandbox === true }),
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
    .printsRecord(
      async (services, options: { partner: number; name: string; id?: number; timezone?: string }) =>
        presentGym(
          await services.catalog.createGym(
            given({
              partnerId: options.partner,
              name: options.name,
              id: options.id,
              timezone: options.timezone,
            }),
          ),
        ),
    );
  gym
    .command('list')
    .description('list gyms (the first 1000)')
    .addOption(onlyOf('partner'))
    .printsRecords(COLUMNS.gym, async (services, options: { partner?: number }) => {
      const filter = options.partner === undefined ? {} : { partnerId: options.partner };
      return (await services.catalog.listGyms(filter, FIRST_PAGE)).items.map(presentGym);
    });

  const product = program
    .command('product')
    .description('products: what a check-in is for, and what it pays');
  product
    .command('create')
    .description('create a product of a gym')
    .addOption(requiredId('gym'))
    .requiredOption('--description <text>', 'shown to front-desk staff after validation')
    .option('--payout-cents <cents>', 'what each validated visit pays the gym (default 0)', nonNegativeInt)
    .option('--currency <code>', 'ISO currency (default GATEHOUSE_CURRENCY)', currency)
    .option('--id <id>', 'the product id (default: the next free one)', positiveInt)
    .printsRecord(async (services, options: ProductOptions) =>
      presentProduct(
        await services.catalog.createProduct(
          options.gym,
          given({
            description: options.description,
            payoutCents: options.payoutCents,
            currency: options.currency,
            id: options.id,
          }),
        ),
      ),
    );
  product
    .command('list')
    .description('list the products of a gym')
    .addOption(requiredId('gym'))
    .printsRecords(COLUMNS.product, async (services, options: { gym: number }) => {
      const gymRecord = await services.catalog.getGym(options.gym);
      return (await services.catalog.listProducts(gymRecord.id)).map(presentProduct);
    });
}
