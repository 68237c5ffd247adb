import type { ApiKey, Gym } from '../domain/entities.js';
import { successRate, type IntegrationReport } from '../domain/integration.js';
import { EntityNotFoundError } from '../domain/errors.js';
import { MAX_PAGE_SIZE } from '../domain/pagination.js';
import { findPartner, listGyms } from '../store/catalog/catalog-repository.js';
import { findCompatibility } from '../store/catalog/compatibility-repository.js';
import { listPartnerEndpoints } from '../store/webhooks/webhook-endpoint-repository.js';
import { endpointHealth } from '../store/webhooks/webhook-health-repository.js';
import type { ServiceDependencies } from './dependencies.js';
import { mayManage, type EndpointManager } from './webhooks/endpoint-access.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export type { IntegrationReport };

/** The gyms of a partner, every page. */
async function partnerGyms(db: ServiceDependencies['store']['db'], partnerId: number): Promise<Gym[]> {
  const gyms: Gym[] = [];
  for (let afterId = 0; ;) {
    const page = await listGyms(db, { partnerId }, { afterId, limit: MAX_PAGE_SIZE });
    gyms.push(...page);
    const last = page.at(-1);
    if (page.length < MAX_PAGE_SIZE || last === undefined) return gyms;
    afterId = last.id;
  }
}

/**
 * A partner's integration as a key (or the operator) sees it: read only, so a partner can tell what is configured
 * before its first real request (docs/contract.md, "Checking an integration").
 */
export function createIntegrationService({ store, clock, config }: ServiceDependencies) {
  return {
    async check(partnerId: number, key: ApiKey | null = null): Promise<IntegrationReport> {
      const partner = await findPartner(store.db, partnerId);
      const compatibility = await findCompatibility(store.db, partnerId);
      if (partner === undefined || compatibility === undefined) throw new EntityNotFoundError('partner');
      const scope = key?.gymIds ?? null;
      const gyms = (await partnerGyms(store.db, partnerId))
        .filter((gym) => gym.retiredAt === null && (scope === null || scope.includes(gym.id)))
        .map((gym) => ({ id: gym.id, name: gym.name, timezone: gym.timezone ?? config.timezone }));
      const manager: EndpointManager =
        key === null ? { kind: 'operator' } : { kind: 'partner', partnerId, gymIds: key.gymIds };
      const endpoints = (
        await listPartnerEndpoints(store.db, partnerId, { afterId: 0, limit: MAX_PAGE_SIZE })
      ).filter((endpoint) => mayManage(manager, endpoint));
      const since = clock.now() - DAY_MS;
      const webhooks = [];
      for (const endpoint of endpoints) {
        const row = await endpointHealth(store.db, endpoint.id, since);
        const rate = successRate(row.attemptedSince, row.deliveredSince);
        webhooks.push({ endpoint, health: { ...row, successRate: rate } });
      }
      return { partner, key, gyms, rateLimitPerSecond: config.rateLimitPerSecond, compatibility, webhooks };
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
