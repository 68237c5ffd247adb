import type { CompatibilityProfile } from '../domain/compatibility.js';
import { formatInstant } from '../domain/time-format.js';
import type { IntegrationReport } from '../domain/integration.js';
import type { TestOutcome } from '../domain/webhooks/test-event.js';

/**
 * A partner's compatibility profile, its integration check and a test event's outcome, as both APIs answer them
 * and the CLI prints them (docs/contract.md).
 */
export const presentCompatibility = (partnerId: number, profile: CompatibilityProfile) => ({
  partner_id: partnerId,
  cancelled_spelling: profile.cancelledSpelling,
  gym_from_key: profile.gymFromKey,
});

export const presentIntegration = (report: IntegrationReport) => ({
  partner: {
    id: report.partner.id,
    name: report.partner.name,
    environment: report.partner.sandbox ? ('sandbox' as const) : ('live' as const),
  },
  key:
    report.key === null
      ? null
      : { prefix: report.key.prefix, gym_ids: report.key.gymIds === null ? null : [...report.key.gymIds] },
  gyms: report.gyms.map((gym) => ({ id: gym.id, name: gym.name, timezone: gym.timezone })),
  rate_limit: { requests_per_second: report.rateLimitPerSecond === 0 ? null : report.rateLimitPerSecond },
  compatibility: {
    cancelled_spelling: report.compatibility.cancelledSpelling,
    gym_from_key: report.compatibility.gymFromKey,
  },
  webhooks: report.webhooks.map(({ endpoint, health }) => ({
    id: endpoint.id,
    url: endpoint.url,
    format: endpoint.format,
    status: endpoint.status,
    disabled_reason: endpoint.disabledReason,
    last_attempt:
      health.lastAttempt === null
        ? null
        : {
            at: formatInstant(health.lastAttempt.at),
            delivered: health.lastAttempt.delivered,
            status_code: health.lastAttempt.statusCode,
            error: health.lastAttempt.error,
          },
    success_rate_24h: health.successRate === null ? null : Math.round(health.successRate * 10_000) / 10_000,
    pending: health.pending,
  })),
});

export const presentTestOutcome = (outcome: TestOutcome) => ({
  webhook_id: outcome.endpoint.id,
  format: outcome.endpoint.format,
  event_type: outcome.eventType,
  event_id: outcome.eventId,
  delivered: outcome.delivered,
  status_code: outcome.statusCode,
  error: outcome.error,
  duration_ms: outcome.durationMs,
  response_excerpt: outcome.excerpt,
});
