import { isSandboxEvent, type LoggedEvent } from '../../domain/events.js';
import { deliveryBody, type WebhookFormat } from '../../domain/webhooks/endpoint.js';
import {
  WELLHUB_SANDBOX_HEADER,
  WELLHUB_SIGNATURE_HEADER,
  wellhubBody,
  wellhubSignature,
} from '../../domain/webhooks/wellhub-format.js';
import { findGym } from '../../store/catalog/catalog-repository.js';
import type { Store } from '../../store/store.js';
import type { Signing } from './sender.js';

export interface DeliveryRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The Standard Webhooks signature, made by the sender (src/services/webhooks/sender.ts). */
  readonly signing?: Signing;
  /**
   * The body as the delivery log keeps it with the attempt: null for the standard format, whose body is the
   * event's own on every attempt (rebuilt from the event when read); a Wellhub body names the gym as it was then.
   */
  readonly kept: string | null;
}

/**
 * The body and signature headers of one attempt, in the endpoint's format. Every format goes through the same
 * delivery machinery (retries, the delivery log, replay); only these bytes differ. The standard format's are made
 * at once; a Wellhub body reads its gym's name first.
 */
export function deliveryRequest(
  db: Store['db'],
  claim: { readonly format: WebhookFormat; readonly eventId: string },
  event: LoggedEvent & { readonly data: Readonly<Record<string, unknown>> },
  secrets: readonly string[],
  now: number,
): DeliveryRequest | Promise<DeliveryRequest> {
  if (claim.format === 'wellhub') return wellhubRequest(db, event, secrets);
  const body = deliveryBody(event);
  return {
    body,
    headers: {},
    signing: { secrets, id: claim.eventId, timestampSeconds: Math.floor(now / 1000) },
    kept: null,
  };
}

async function wellhubRequest(
  db: Store['db'],
  event: LoggedEvent & { readonly data: Readonly<Record<string, unknown>> },
  secrets: readonly string[],
): Promise<DeliveryRequest> {
  // The gym's name as it is now: a rename reaches the front desk's next delivery.
  const gym = await findGym(db, event.gymId);
  const body = wellhubBody({ data: event.data, gym: { id: event.gymId, name: gym?.name ?? '' } });
  const [secret = ''] = secrets;
  const headers: Record<string, string> = { [WELLHUB_SIGNATURE_HEADER]: wellhubSignature(secret, body) };
  if (isSandboxEvent(event)) headers[WELLHUB_SANDBOX_HEADER] = 'true';
  return { body, headers, kept: body };
}
