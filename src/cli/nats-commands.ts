import type { Command } from 'commander';
import { ConfigError } from '../config/errors.js';
import { positiveInt } from './arguments.js';
import { withServices } from './context.js';

/** `gatehouse nats replay --from <position>`: repairs the NATS feed after the broker lost messages. */
export function addNatsCommands(program: Command): void {
  const nats = program.command('nats').description('the NATS JetStream feed (GATEHOUSE_NATS_URL)');
  nats
    .command('replay')
    .description(
      'move the feed back and publish the event log again from <position> (a message’s Gatehouse-Position); ' +
        'the stream drops what it still holds within its duplicate window',
    )
    .requiredOption('--from <position>', 'the first position of the log to publish again', positiveInt)
    .action((options: { from: number }) =>
      withServices(async (services, config, _migrated, _notes, store) => {
        const { createNatsFeed } = await import('../services/nats-feed.js');
        if (config.natsUrl === undefined)
          throw new ConfigError('GATEHOUSE_NATS_URL is not set: there is no NATS feed to replay');
        const { natsSubjectPrefix: prefix, natsStream: stream } = config;
        const log = { warn: () => undefined, info: () => undefined };
        const feed = createNatsFeed({
          store,
          clock: services.clock,
          url: config.natsUrl,
          prefix,
          stream,
          retentionDays: config.eventRetentionDays,
          log,
        });
        try {
          const { read, position } = await feed.replay(options.from);
          process.stdout.write(
            `${read} events from position ${options.from} to ${position} published again to stream ${stream}\n`,
          );
        } finally {
          await feed.stop();
        }
      }),
    );
}
