import { sql } from 'kysely';
import type { Store } from '../../src/store/store.js';

/**
 * Makes every write of one custom code value fail inside the database (a trigger), so a test can fail exactly
 * one change of a batch whatever path carries it out.
 */
export async function failCodeWrites(store: Store, code: string): Promise<void> {
  if (store.dialect === 'sqlite') {
    for (const event of ['insert', 'update']) {
      await sql
        .raw(
          `create trigger fail_code_${event} before ${event} on custom_codes when new.code = '${code}'
           begin select raise(abort, 'injected failure'); end`,
        )
        .execute(store.db);
    }
    return;
  }
  await sql
    .raw(
      `create function fail_code() returns trigger language plpgsql as $$
       begin if new.code = '${code}' then raise exception 'injected failure'; end if; return new; end $$;
       create trigger fail_code before insert or update on custom_codes for each row execute function fail_code()`,
    )
    .execute(store.db);
}

export async function allowCodeWrites(store: Store): Promise<void> {
  if (store.dialect === 'sqlite') {
    await sql.raw('drop trigger fail_code_insert').execute(store.db);
    await sql.raw('drop trigger fail_code_update').execute(store.db);
    return;
  }
  await sql.raw('drop trigger fail_code on custom_codes; drop function fail_code()').execute(store.db);
}

/** Makes the creation of a check-in for one member fail inside the database, whatever path carries it out. */
export async function failCheckinCreation(store: Store, platformId: string): Promise<void> {
  if (store.dialect === 'sqlite') {
    await sql
      .raw(
        `create trigger fail_checkin before insert on checkins when new.platform_id = '${platformId}'
         begin select raise(abort, 'injected failure'); end`,
      )
      .execute(store.db);
    return;
  }
  await sql
    .raw(
      `create function fail_checkin() returns trigger language plpgsql as $$
       begin if new.platform_id = '${platformId}' then raise exception 'injected failure'; end if; return new; end $$;
       create trigger fail_checkin before insert on checkins for each row execute function fail_checkin()`,
    )
    .execute(store.db);
}

export async function allowCheckinCreation(store: Store): Promise<void> {
  const drop =
    store.dialect === 'sqlite'
      ? 'drop trigger fail_checkin'
      : 'drop trigger fail_checkin on checkins; drop function fail_checkin()';
  await sql.raw(drop).execute(store.db);
}
