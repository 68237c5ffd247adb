import { describe, test } from 'vitest';
import { gatehouse } from '../../fixtures/processes/cli.js';

/**
 * Every command of the operator CLI with what its help must mention: the options of a command,
 * the subcommands of a group. Written out here, so a command or option that disappears fails a test.
 */
const COMMANDS: readonly (readonly [command: string, mentions: readonly string[]])[] = [
  [
    '',
    [
      'Usage: gatehouse [options] [command]',
      'GATEHOUSE_DATABASE_URL',
      'serve',
      'migrate',
      'demo',
      'partner',
      'gym',
      'product',
      'key',
      'checkin',
      'transactions',
      'payouts',
      'webhook',
      'plan',
      'payout-rule',
    ],
  ],
  [
    'webhook',
    [
      'Usage: gatehouse webhook [options] [command]',
      'add [options]',
      'list [options]',
      'update [options] <webhook-id>',
      'remove <webhook-id>',
      'rotate [options] <webhook-id>',
      'enable [options] <webhook-id>',
      'deliveries [options] <webhook-id>',
      'attempts [options] <delivery-id>',
      'retry <delivery-id>',
      'recover [options] <webhook-id>',
    ],
  ],
  [
    'webhook add',
    [
      'Usage: gatehouse webhook add [options]',
      '--partner <id>',
      '--url <url>',
      '(required) where events are POSTed',
      '--events <types>',
      '--gyms <ids>',
      '--timeout-ms <ms>',
      '--secret <whsec>',
    ],
  ],
  [
    'plan',
    [
      'Usage: gatehouse plan [options] [command]',
      'create [options]',
      'update [options] <plan-id>',
      'list [options]',
      'show [options] <plan-id>',
    ],
  ],
  [
    'plan create',
    ['Usage: gatehouse plan create [options]', '--name <name>', '--rule <rule>', '--effective-from <time>'],
  ],
  [
    'member plan',
    ['Usage: gatehouse member plan [options] <platform-id>', '--plan <id>', '--effective-from <time>'],
  ],
  ['payout-rule', ['Usage: gatehouse payout-rule [options] [command]', 'set [options]', 'show [options]']],
  [
    'payout-rule set',
    [
      'Usage: gatehouse payout-rule set [options]',
      '--partner <id>',
      '--gym <id>',
      '--monthly-paid-visits <n>',
      '--tier <tier>',
      '--no-tiers',
      '--effective-from <time>',
    ],
  ],
  ['serve', ['Usage: gatehouse serve [options]', 'GATEHOUSE_MIGRATE=false']],
  ['migrate', ['Usage: gatehouse migrate [options]']],
  ['demo', ['Usage: gatehouse demo [options]', 'curl']],
  ['partner', ['Usage: gatehouse partner [options] [command]', 'create [options] <name>', 'list [options]']],
  ['partner create', ['Usage: gatehouse partner create [options] <name>', '--format <format>']],
  ['partner list', ['Usage: gatehouse partner list [options]', '--format <format>']],
  ['gym', ['Usage: gatehouse gym [options] [command]', 'create [options]', 'list [options]']],
  [
    'gym create',
    [
      'Usage: gatehouse gym create [options]',
      '--partner <id>',
      '--name <name>',
      '--id <id>',
      '--format <format>',
    ],
  ],
  ['gym list', ['Usage: gatehouse gym list [options]', '--partner <id>', '--format <format>']],
  ['product', ['Usage: gatehouse product [options] [command]', 'create [options]', 'list [options]']],
  [
    'product create',
    [
      'Usage: gatehouse product create [options]',
      '--gym <id>',
      '--description <text>',
      '--payout-cents <cents>',
      '--currency <code>',
      '--id <id>',
      '--format <format>',
    ],
  ],
  ['product list', ['Usage: gatehouse product list [options]', '--gym <id>', '--format <format>']],
  [
    'key',
    ['Usage: gatehouse key [options] [command]', 'issue [options]', 'list [options]', 'revoke <key-id>'],
  ],
  [
    'key issue',
    [
      'Usage: gatehouse key issue [options]',
      '--partner <id>',
      '--label <label>',
      '--gyms <ids>',
      '--expires-at <time>',
      '--format <format>',
    ],
  ],
  ['key list', ['Usage: gatehouse key list [options]', '--partner <id>', '--format <format>']],
  ['key revoke', ['Usage: gatehouse key revoke [options] <key-id>', 'key-id']],
  [
    'checkin',
    [
      'Usage: gatehouse checkin [options] [command]',
      'create [options]',
      'cancel [options] <checkin-id>',
      'list [options]',
    ],
  ],
  [
    'checkin create',
    [
      'Usage: gatehouse checkin create [options]',
      '--platform-id <id>',
      '--gym <id>',
      '--product <id>',
      '--at <time>',
      '--format <format>',
    ],
  ],
  [
    'checkin cancel',
    ['Usage: gatehouse checkin cancel [options] <checkin-id>', 'checkin-id', '--format <format>'],
  ],
  [
    'checkin list',
    [
      'Usage: gatehouse checkin list [options]',
      '--platform-id <id>',
      '--gym <id>',
      '--status <status>',
      'pending, validated, cancelled, expired',
      '--format <format>',
    ],
  ],
  [
    'transactions',
    [
      'Usage: gatehouse transactions [options]',
      '--partner <id>',
      '--gym <id>',
      '--from <time>',
      '--to <time>',
      '--include-sandbox',
      '--format <format>',
    ],
  ],
  [
    'payouts',
    [
      'Usage: gatehouse payouts [options]',
      '--from <time>',
      '--to <time>',
      '--partner <id>',
      '--gym <id>',
      '--sandbox',
      '--format <format>',
    ],
  ],
];

describe.concurrent('gatehouse --help: every command explains itself and exits 0', () => {
  test.for(COMMANDS)('gatehouse %s --help', async ([command, mentions], { expect }) => {
    // No database is configured: help must not need one (nor open the default).
    const result = await gatehouse([...command.split(' ').filter(Boolean), '--help'], {
      GATEHOUSE_DATABASE_URL: 'sqlite:/nonexistent/help-must-not-open-it.db',
    });

    expect(result).toMatchObject({ code: 0, stderr: '' });
    for (const text of [...mentions, '-h, --help']) expect(result.stdout).toContain(text);
  });
});
