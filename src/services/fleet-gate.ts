import { randomUUID } from 'node:crypto';
import {
  deregister,
  forgetSilent,
  HEARTBEAT_MS,
  heartbeat,
  LIVE_WITHIN_MS,
  olderReleaseAlive,
} from '../store/fleet/process-registry.js';
import { anyPlan } from '../store/plans/plan-repository.js';
import { NEWEST_MIGRATION } from './release.js';
import type { ServiceDependencies } from './dependencies.js';

/** A process silent this long crashed or was killed: its row goes. */
const FORGOTTEN_AFTER_MS = 86_400_000;

/** The migration that brought plans: a process whose newest migration sorts before it knows none. */
export const PLANS_MIGRATION = '0014-plans';
/** The migration that brought the pricing of visits: a process before it pays every visit its list price. */
export const PRICING_MIGRATION = '0015-pricing';
/**
 * The migration that counts a member's priced visits on their check-ins: a process before it reads only the
 * members' counter rows, so visits are counted there until none is left.
 */
export const VISIT_MARKS_MIGRATION = '0019-visit-marks';

/** The settled answers a trusted gate gives. */
const YES = Promise.resolve(true);
const NO = Promise.resolve(false);

/**
 * The rolling-upgrade gate. Each serving process registers the release it runs (its newest migration) in the
 * database and renews it every HEARTBEAT_MS; it leaves when it closes. A rule that the previous release does not know
 * takes effect only while no live process (heartbeat within three intervals) runs a release older than the
 * migration that brought it, so every process decides alike. Processes of releases from before the registry
 * cannot be seen: the README's upgrade note says to finish that one rollout before creating plans.
 */
export function createFleetGate({ store, clock }: ServiceDependencies) {
  const id = randomUUID();
  let timer: NodeJS.Timeout | undefined;
  /** Per gating migration: until when (process time) "every process knows it" holds without asking again. */
  const openUntil = new Map<string, number>();
  /** Until when (process time) "no plan exists" holds without asking again: creations then read no plan at all. */
  let noPlansUntil = 0;
  /** A plan was seen: plans are never deleted, so that holds for good and is not asked again. */
  let plansExist = false;
  /**
   * The reads in flight, shared: the requests that find an answer expired together ask once, not once each. A plan
   * created here drops the plans' one, so that no answer read before it counts after it.
   */
  const asking = new Map<string, Promise<boolean>>();
  /** Counts the plans created here: a read begun before one of them does not re-arm "no plan yet". */
  let plansCreated = 0;

  function once(key: string, read: () => Promise<boolean>): Promise<boolean> {
    let answer = asking.get(key);
    if (answer === undefined) {
      answer = read().finally(() => {
        if (asking.get(key) === answer) asking.delete(key);
      });
      asking.set(key, answer);
    }
    return answer;
  }

  const beat = () =>
    store.write(async (trx) => {
      const now = clock.now();
      await heartbeat(trx, id, NEWEST_MIGRATION, now);
      await forgetSilent(trx, now - FORGOTTEN_AFTER_MS);
    });

  /** No live process runs a release older than `migration`; an open answer is trusted for a heartbeat interval. */
  function everyProcessKnows(migration: string): Promise<boolean> {
    // A trusted answer is a settled promise, shared: the requests asking on every validation allocate nothing.
    if (performance.now() < (openUntil.get(migration) ?? 0)) return YES;
    return once(migration, async () => {
      const since = clock.now() - LIVE_WITHIN_MS;
      // No registry (the migrations have not run): nothing new is in effect either.
      const older = await olderReleaseAlive(store.db, migration, since).catch(() => true);
      if (older) return false;
      openUntil.set(migration, performance.now() + HEARTBEAT_MS);
      return true;
    });
  }

  /** Plans before one was seen: the gate, then whether a plan exists. */
  async function plansAsked(): Promise<boolean> {
    if (!(await everyProcessKnows(PLANS_MIGRATION))) return false;
    return plansExist || anyPlanYet();
  }

  /** Whether a plan exists, read once for every request that asks meanwhile. */
  const anyPlanYet = () =>
    once('plans', async () => {
      const before = plansCreated;
      // A failed read decides as if plans existed (the creation then reads the member's plan itself) once.
      const exists = await anyPlan(store.db).then(
        (found) => (plansExist = found),
        () => true,
      );
      if (!exists && before === plansCreated) noPlansUntil = performance.now() + HEARTBEAT_MS;
      return exists;
    });

  return {
    id,
    /** Registers this process and keeps its heartbeat going (a serving process; the CLI's commands do not). */
    async start(): Promise<void> {
      // Before the migrations have run there is no registry yet: the next beat registers.
      await beat().catch(() => undefined);
      timer = setInterval(() => void beat().catch(() => undefined), HEARTBEAT_MS);
      timer.unref();
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      if (timer !== undefined) await deregister(store.db, id).catch(() => undefined);
    },

    /**
     * Whether plans are in effect: some plan exists and no live process runs an older release. An open gate is
     * trusted for a heartbeat interval, and so is "no plan yet" (a check-in creation then reads nothing of plans: a
     * network without plans pays nothing for them); a plan created here counts at once, one created by another
     * process within that interval. Once a plan has been seen it is not asked again: plans are never deleted. A closed gate is asked again each time (it is closed only during a rollout).
     */
    plansInEffect(): Promise<boolean> {
      if (performance.now() < noPlansUntil) return NO;
      return plansExist ? everyProcessKnows(PLANS_MIGRATION) : plansAsked();
    },

    /**
     * Whether payout rules price visits: no live process runs a release from before the pricing of visits (which
     * would pay them their list price). Asked only for a gym that has rules (the rule cache knows which); trusted
     * as the plans' gate is.
     */
    payoutRulesInEffect(): Promise<boolean> {
      return everyProcessKnows(PRICING_MIGRATION);
    },

    /**
     * Whether a priced visit is counted on its check-in rather than on its member's counter row: no live process
     * runs a release that reads the counter rows alone. Every release that marks reads both, so processes that
     * decide this differently meanwhile still count each visit once; trusted as the plans' gate is.
     */
    visitMarksInEffect(): Promise<boolean> {
      return everyProcessKnows(VISIT_MARKS_MIGRATION);
    },

    /** A plan was just created by this process: the next creation reads plans again. */
    planCreated(): void {
      noPlansUntil = 0;
      plansCreated += 1;
      asking.delete('plans');
    },
  };
}

export type FleetGate = ReturnType<typeof createFleetGate>;
