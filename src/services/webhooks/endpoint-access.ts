import { EntityNotFoundError, InputError } from '../../domain/errors.js';
import type { WebhookEndpoint } from '../../domain/webhooks/endpoint.js';
import type { StoreTransaction } from '../../store/store.js';
import { findEndpoint } from '../../store/webhooks/webhook-endpoint-repository.js';

/**
 * Who manages an endpoint: the operator (every endpoint), or a partner's key — its own partner's endpoints, and
 * when the key is limited to some gyms, only endpoints limited to gyms within that scope.
 */
export type EndpointManager =
  | { readonly kind: 'operator' }
  | { readonly kind: 'partner'; readonly partnerId: number; readonly gymIds: readonly number[] | null };

export const OPERATOR_MANAGER: EndpointManager = { kind: 'operator' };

export function mayManage(
  manager: EndpointManager,
  endpoint: Pick<WebhookEndpoint, 'partnerId' | 'gymIds'>,
): boolean {
  if (manager.kind === 'operator') return true;
  if (endpoint.partnerId !== manager.partnerId) return false;
  const scope = manager.gymIds;
  return scope === null || (endpoint.gymIds !== null && endpoint.gymIds.every((gym) => scope.includes(gym)));
}

/** The endpoint, when it exists and `manager` may manage it; the same 404 when it does not exist and when it may not. */
export async function managedEndpoint(
  db: StoreTransaction,
  id: number,
  manager: EndpointManager,
): Promise<WebhookEndpoint> {
  const endpoint = await findEndpoint(db, id);
  if (endpoint === undefined || !mayManage(manager, endpoint)) throw new EntityNotFoundError('webhook');
  return endpoint;
}

/** The gyms a scoped key gives an endpoint: some, all within its scope. */
export function assertGymsInScope(manager: EndpointManager, gymIds: readonly number[] | null): void {
  if (manager.kind === 'operator' || manager.gymIds === null) return;
  const scope = manager.gymIds;
  if (gymIds === null || !gymIds.every((gym) => scope.includes(gym))) {
    throw new InputError(
      'gym_ids',
      'a key limited to some gyms must limit its webhooks to gyms within its scope',
    );
  }
}
