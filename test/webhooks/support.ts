import { afterAll, beforeAll } from 'vitest';
import { TestClock } from '../helpers/test-clock.js';
import { startTestApp, type TestApp, type TestDialect } from '../helpers/test-app.js';
import type { Resolver } from '../../src/services/webhooks/resolver.js';
import { ADMIN_TOKEN, admin } from '../helpers/operator-api.js';

/** Real time, movable forward: deliveries are due by the clock, and the runner waits in real time. */
export class RunningClock extends TestClock {
  private offset = 0;
  override now(): number {
    return Date.now() + this.offset;
  }
  override advance(ms: number): void {
    this.offset += ms;
  }
}

export const FAST_SCHEDULE = '0.2,0.3,0.4,0.5,0.5,0.5,0.5,0.5,0.5,0.5';

export interface WebhookAppOptions {
  readonly dialect: TestDialect;
  readonly env?: Record<string, string>;
  readonly resolver?: Resolver;
  /** false: the delivery loop is not started. */
  readonly deliver?: boolean;
}

/** An app with the webhook delivery loop running on a compressed retry schedule, loopback receivers allowed. */
export async function startWebhookApp(options: WebhookAppOptions): Promise<TestApp> {
  const t = await startTestApp({
    dialect: options.dialect,
    clock: new RunningClock(),
    env: {
      GATEHOUSE_ADMIN_TOKEN: ADMIN_TOKEN,
      GATEHOUSE_AUTH_FAILURE_LIMIT_PER_MINUTE: '0',
      GATEHOUSE_WEBHOOK_ALLOW_PRIVATE: 'true',
      GATEHOUSE_WEBHOOK_RETRY_SCHEDULE: FAST_SCHEDULE,
      ...options.env,
    },
    ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
  });
  if (options.deliver !== false) t.webhookRunner.start();
  return t;
}

export function webhookApp(options: WebhookAppOptions): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await startWebhookApp(options);
  });
  afterAll(async () => {
    await current?.close();
  });
  return () => {
    if (current === undefined) throw new Error('webhookApp: the app did not start');
    return current;
  };
}

export interface Endpoint {
  id: number;
  partner_id: number;
  url: string;
  secret: string;
  status: string;
}

export interface Delivery {
  id: number;
  webhook_id: number;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

export async function register(
  t: TestApp,
  partnerId: number,
  body: Record<string, unknown>,
): Promise<Endpoint> {
  const response = await admin(t, 'POST', `/partners/${partnerId}/webhooks`, body);
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`);
  return JSON.parse(response.body) as Endpoint;
}

export async function deliveriesOf(t: TestApp, webhookId: number, query = ''): Promise<Delivery[]> {
  const response = await admin(t, 'GET', `/webhooks/${webhookId}/deliveries?limit=1000${query}`);
  if (response.statusCode !== 200) throw new Error(`deliveries: ${response.statusCode} ${response.body}`);
  return (JSON.parse(response.body) as { items: Delivery[] }).items;
}
