import type { Migration } from 'kysely';
import * as initial from './0001-initial.js';
import * as auditLog from './0002-audit-log.js';
import * as eventLog from './0003-event-log.js';
import * as commitHorizon from './0004-commit-horizon.js';
import * as webhooks from './0005-webhooks.js';
import * as operators from './0006-operators.js';
import * as money from './0007-money.js';
import * as wellhub from './0008-wellhub.js';
import * as eventScan from './0009-event-scan.js';
import * as transactionIdOffset from './0010-transaction-id-offset.js';
import * as compatibility from './0011-compatibility.js';
import * as auditActorId from './0012-audit-actor-id.js';
import * as processSettings from './0013-process-settings.js';
import * as plans from './0014-plans.js';
import * as pricing from './0015-pricing.js';
import * as webhookAttempts from './0016-webhook-attempts.js';
import * as auditNamedEntries from './0017-audit-named-entries.js';
import * as memberCheckinsByExpiry from './0018-member-checkins-by-expiry.js';
import * as visitMarks from './0019-visit-marks.js';
import * as pendingDeliveries from './0020-pending-deliveries.js';
import * as planVersionsInForce from './0021-plan-versions-in-force.js';
import * as keyAnnouncements from './0022-key-announcements.js';
import * as endpointsByStart from './0023-endpoints-by-start.js';

/**
 * Every migration, in order. Imported statically so the built package needs no file-system scan.
 *
 * Migrations only add (tables, nullable or defaulted columns, indexes): a fleet upgrades one process at a time,
 * so the previous release must keep working on the new schema. Dropping or renaming a table or column waits a
 * release, until no process of the release that used it can still be running; an index may go at once (a query
 * without it is slower, never wrong).
 */
export const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-audit-log': auditLog,
  '0003-event-log': eventLog,
  '0004-commit-horizon': commitHorizon,
  '0005-webhooks': webhooks,
  '0006-operators': operators,
  '0007-money': money,
  '0008-wellhub': wellhub,
  '0009-event-scan': eventScan,
  '0010-transaction-id-offset': transactionIdOffset,
  '0011-compatibility': compatibility,
  '0012-audit-actor-id': auditActorId,
  '0013-process-settings': processSettings,
  '0014-plans': plans,
  '0015-pricing': pricing,
  '0016-webhook-attempts': webhookAttempts,
  '0017-audit-named-entries': auditNamedEntries,
  '0018-member-checkins-by-expiry': memberCheckinsByExpiry,
  '0019-visit-marks': visitMarks,
  '0020-pending-deliveries': pendingDeliveries,
  '0021-plan-versions-in-force': planVersionsInForce,
  '0022-key-announcements': keyAnnouncements,
  '0023-endpoints-by-start': endpointsByStart,
};
