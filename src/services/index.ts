import { createApiKeyService } from './api-key-service.js';
import { createAuditService } from './audit-service.js';
import { createLedgerService } from './ledger-service.js';
import { createCatalogChangeService } from './catalog-change-service.js';
import { createCatalogService } from './catalog-service.js';
import { createCheckinService } from './checkin-service.js';
import { createCompatibilityService } from './compatibility-service.js';
import { createCustomCodeService } from './custom-code-service.js';
import type { ServiceDependencies } from './dependencies.js';
import { createEventFeed } from './event-feed.js';
import { createEventService } from './event-service.js';
import { createFleetGate } from './fleet-gate.js';
import { createEventStreams } from './event-streams.js';
import { createGymOwners } from './gym-owners.js';
import { createIntegrationService } from './integration-service.js';
import { createMemberService } from './member-service.js';
import { createOperatorService } from './operator-service.js';
import { createPayoutRuleService } from './payout-rule-service.js';
import { createPayoutRuleCache } from './payout-rule-cache.js';
import { createPlanService } from './plan-service.js';
import { createRetentionService } from './retention-service.js';
import { createSettlementService } from './settlement-service.js';
import { createStatsService } from './stats-service.js';
import { createValidationService } from './validation-service.js';
import { createSandboxService } from './sandbox-service.js';
import { createWebhookServices } from './webhooks/index.js';

export function createServices(deps: ServiceDependencies) {
  // One view of who owns which gym: key authorization reads it, gym creation updates it.
  const gymOwners = createGymOwners(deps);
  const apiKeys = createApiKeyService(deps, gymOwners);
  const fleet = createFleetGate(deps);
  const checkins = createCheckinService(deps, fleet);
  const payoutRuleCache = createPayoutRuleCache(deps);
  const eventFeed = createEventFeed(deps);
  return {
    /** The services' clock, for presenting time-derived state (an expired check-in) consistently. */
    clock: deps.clock,
    /** The network's time zone (GATEHOUSE_TIMEZONE): periods and days are read there unless a gym has its own. */
    timezone: deps.config.timezone,
    /** This process in the registry of releases, and the rolling-upgrade gate of plans. */
    fleet,
    catalog: createCatalogService(deps, gymOwners),
    apiKeys,
    catalogChanges: createCatalogChangeService(deps, () => apiKeys.forgetCached()),
    compatibility: createCompatibilityService(deps, () => apiKeys.forgetCached()),
    integration: createIntegrationService(deps),
    checkins,
    sandbox: createSandboxService(deps, checkins),
    validation: createValidationService(deps, fleet, payoutRuleCache),
    customCodes: createCustomCodeService(deps),
    ledger: createLedgerService(deps),
    settlements: createSettlementService(deps),
    audit: createAuditService(deps),
    events: createEventService(deps),
    operators: createOperatorService(deps),
    members: createMemberService(deps),
    plans: createPlanService(deps, () => fleet.planCreated()),
    payoutRules: createPayoutRuleService(deps, () => payoutRuleCache.forget()),
    retention: createRetentionService(deps),
    webhooks: createWebhookServices(deps),
    stats: createStatsService(deps),
    /** The one shared reader of the event log that every event stream of this process follows. */
    eventFeed,
    /** The event streams: quotas, credentials, lifetime; all closed when the server shuts down. */
    eventStreams: createEventStreams(deps, eventFeed),
  };
}

export type Services = ReturnType<typeof createServices>;
export type { ServiceDependencies } from './dependencies.js';
