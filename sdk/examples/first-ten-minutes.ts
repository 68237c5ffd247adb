import { createServer, type Server } from 'node:http';
import {
  GatehouseClient,
  isTestEvent,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '../src/index.js';

/*
 * sdk/README.md, "A partner's first ten minutes". The lines between each pair of markers are quoted there
 * verbatim, and test/sdk/first-ten-minutes.test.ts checks that and runs these functions against a live gatehouse.
 */

/** Your club system's webhook receiver: `secret()` is the endpoint's signing secret, `handle` your code. */
export function webhookReceiver(secret: () => string, handle: (event: WebhookEvent) => void): Server {
  // README:receive:begin
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        // The body exactly as it arrived: re-serialised JSON no longer matches its signature.
        const event = verifyWebhook(Buffer.concat(chunks), request.headers, secret());
        if (!isTestEvent(event)) handle(event); // a test event is answered 2xx and acted on nowhere
        response.writeHead(204).end();
      } catch (error) {
        response.writeHead(error instanceof WebhookVerificationError ? 401 : 500).end();
      }
    });
  });
  // README:receive:end
  return receiver;
}

/** Check the key, register the receiver's URL and send it a test event. */
export async function setUp(
  baseUrl: string,
  apiKey: string,
  gymId: number,
  webhookUrl: string,
  secrets: Map<number, string>,
) {
  // README:setup:begin
  const gatehouse = new GatehouseClient({ baseUrl, apiKey, gymId });
  // Live or sandbox, the gyms this key may act on with their time zones, the compatibility profile, each
  // webhook endpoint's health: what the key reaches, before anything else.
  const integration = await gatehouse.checkIntegration();
  // The signing secret is in this answer only: keep it where the receiver reads it.
  const endpoint = await gatehouse.createWebhook({ url: webhookUrl, eventTypes: ['checkin.created'] });
  secrets.set(endpoint.id, endpoint.secret);
  // One signed test event, now: delivered once the receiver answered 2xx, else status_code or error say why.
  const outcome = await gatehouse.testWebhook(endpoint.id);
  // README:setup:end
  return { gatehouse, integration, endpoint, outcome };
}

/** At the front desk, once the member app has checked the member in. */
export async function admit(gatehouse: GatehouseClient, platformId: string) {
  // README:desk:begin
  const result = await gatehouse.validate({ platformId }, { retry: { attempts: 3, delayMs: 1000 } });
  const health = (await gatehouse.checkIntegration()).webhooks; // last attempt, 24 h success rate, pending
  // README:desk:end
  return { result, health };
}
