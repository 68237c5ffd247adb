import { resolve } from 'node:path';
import type { Command } from 'commander';

/** `gatehouse backup <file>` and `gatehouse restore <file>`, for a SQLite database (PostgreSQL: pg_dump). */
export function addBackupCommands(program: Command): void {
  program
    .command('backup')
    .description('copy the SQLite database to <file>, consistently, while it is being served')
    .argument('<file>', 'where to write the copy (must not exist)')
    .action(async (file: string) => {
      const [{ loadConfig }, { backupSqlite, sqlitePath }] = await Promise.all([
        import('../config/index.js'),
        import('../store/dialects/sqlite/sqlite-backup.js'),
      ]);
      const source = sqlitePath(loadConfig().databaseUrl, 'backup');
      const { pages } = await backupSqlite(source, file);
      process.stdout.write(
        `backup of ${source} written to ${resolve(file)} (${pages} pages, integrity ok)\n`,
      );
    });
  program
    .command('restore')
    .description(
      'put a backup made by `gatehouse backup` in place of the SQLite database (stop serving first)',
    )
    .argument('<file>', 'the backup')
    .action(async (file: string) => {
      const [{ loadConfig }, { restoreSqlite, sqlitePath }] = await Promise.all([
        import('../config/index.js'),
        import('../store/dialects/sqlite/sqlite-backup.js'),
      ]);
      const target = sqlitePath(loadConfig().databaseUrl, 'restore');
      await restoreSqlite(file, target);
      process.stdout.write(`${target} restored from ${resolve(file)}\n`);
    });
}
