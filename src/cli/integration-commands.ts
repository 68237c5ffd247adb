import { Option } from 'commander';
import { presentCompatibility, presentIntegration, presentTestOutcome } from '../presenters/integration.js';
import { oneOf } from './arguments.js';
import { withServices } from './context.js';
import { subcommand, type GatehouseCommand } from './gatehouse-command.js';
import { recordId } from './options.js';

const yesNo = oneOf(['true', 'false'] as const, 'must be true or false');

/**
 * `gatehouse partner check|compat` and `gatehouse webhook test`: a partner's integration as its keys see it, its
 * compatibility profile, and a test event sent now (docs/contract.md).
 */
export function addIntegrationCommands(program: GatehouseCommand): void {
  const partner = subcommand(program, 'partner');
  partner
    .command('check')
    .addArgument(recordId('partner'))
    .description(
      "what the partner's keys reach: live or sandbox, gyms and their zones, rate limit, profile, webhooks' health (JSON)",
    )
    .action((id: number) =>
      withServices(async (services) => {
        const report = await services.integration.check(id);
        process.stdout.write(`${JSON.stringify(presentIntegration(report), null, 2)}\n`);
      }),
    );
  partner
    .command('compat')
    .addArgument(recordId('partner'))
    .description(
      "show, or set, the partner's compatibility profile (an option left out is the spec's answer)",
    )
    .addOption(
      new Option('--cancelled-spelling <spelling>', "cancelled (the spec's) or canceled").argParser(
        oneOf(['cancelled', 'canceled'] as const, 'must be cancelled or canceled'),
      ),
    )
    .addOption(new Option('--gym-from-key <bool>', 'a key with one gym may omit X-Gym-Id').argParser(yesNo))
    .addOption(
      new Option('--reset', "back to the spec's answers").conflicts(['cancelledSpelling', 'gymFromKey']),
    )
    .printsRecord(
      async (
        services,
        partnerId: number,
        options: { cancelledSpelling?: string; gymFromKey?: 'true' | 'false'; reset?: boolean },
      ) => {
        const setting =
          options.reset === true ||
          options.cancelledSpelling !== undefined ||
          options.gymFromKey !== undefined;
        const profile = setting
          ? await services.compatibility.set(partnerId, {
              cancelledSpelling: options.cancelledSpelling,
              gymFromKey: options.gymFromKey === undefined ? undefined : options.gymFromKey === 'true',
            })
          : await services.compatibility.get(partnerId);
        return presentCompatibility(partnerId, profile);
      },
    );
  subcommand(program, 'webhook')
    .command('test')
    .addArgument(recordId('webhook', 'the endpoint'))
    .description(
      'send a test event to the endpoint now and print how it went (not logged as a delivery); exits 1 when it was not delivered',
    )
    .printsRecord(async (services, id: number) => {
      const outcome = await services.webhooks.tests.send(id);
      // Printed either way; a script's `&&` stops at an endpoint that did not take it.
      if (!outcome.delivered) process.exitCode = 1;
      return presentTestOutcome(outcome);
    });
}
