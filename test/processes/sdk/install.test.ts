import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openOperator, arrangeCheckins, type Operator } from '../../fixtures/processes/arrange.js';
import { useGatehouseProcesses, type GatehouseProcess } from '../../fixtures/processes/gatehouse-process.js';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SDK = join(REPO_ROOT, 'sdk');

/** A project of a partner's developer, outside the checkout: it installs the tarball and compiles with strict. */
const PROGRAM = `import { GatehouseClient, GatehouseError, type ValidationDetails } from '@gatehouse/client';

const [baseUrl = '', apiKey = '', gymId = '', platformId = ''] = process.argv.slice(2);
const gatehouse = new GatehouseClient({ baseUrl, apiKey, gymId: Number(gymId), timeoutMs: 5000 });
const result = await gatehouse.validate({ platformId });
const details: ValidationDetails | null | undefined = result.status === 'validated' ? result.details : undefined;
console.log(\`Welcome! Enjoy your \${details?.gym.product.description ?? '?'}.\`);
try {
  await gatehouse.validate({ platformId });
} catch (error) {
  if (error instanceof GatehouseError) console.log(error.status, error.key);
}
`;

describe('the SDK, installed as its README says', () => {
  const startGatehouse = useGatehouseProcesses();
  const project = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-user-'));
  const packed = mkdtempSync(join(tmpdir(), 'gatehouse-sdk-pack-'));
  let operator: Operator;
  let server: GatehouseProcess;
  beforeAll(async () => {
    const url = `sqlite:${join(project, 'gatehouse.db')}`;
    server = await startGatehouse({ GATEHOUSE_DATABASE_URL: url });
    operator = openOperator(url);
  });
  afterAll(async () => {
    await operator.close();
    rmSync(project, { recursive: true, force: true });
    rmSync(packed, { recursive: true, force: true });
  });

  test('when packed in sdk/ and installed from the tarball elsewhere, then it compiles strictly on its own types and validates', async () => {
    // `cd sdk && npm pack`: the prepack script builds it.
    await run('npm', ['pack', '--pack-destination', packed], { cwd: SDK });
    const [tarball] = readdirSync(packed);
    expect(tarball).toMatch(/^gatehouse-client-\d+\.\d+\.\d+\.tgz$/);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'partner-app', private: true, type: 'module' }),
    );
    writeFileSync(join(project, 'main.ts'), PROGRAM);

    // No dependency to fetch: the install works offline.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packed, tarball ?? '')], {
      cwd: project,
    });
    // Strict, and the library's declarations checked too: they must need nothing but fetch's types.
    const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    await run(
      process.execPath,
      [
        tsc,
        '--strict',
        '--module',
        'nodenext',
        '--target',
        'es2022',
        '--skipLibCheck',
        'false',
        '--types',
        'node',
        '--typeRoots',
        join(REPO_ROOT, 'node_modules', '@types'),
        '--outDir',
        'out',
        'main.ts',
      ],
      { cwd: project },
    ).catch((error: { stdout: string }) => expect.fail(`tsc failed:\n${error.stdout}`));
    const arranged = await arrangeCheckins(operator.services, 1);
    const member = arranged.checkins[0]?.platformId ?? '';

    const { stdout } = await run(
      process.execPath,
      ['out/main.js', server.baseUrl, arranged.key, String(arranged.gym.id), member],
      { cwd: project },
    );

    expect(stdout).toBe(
      `Welcome! Enjoy your ${arranged.product.description}.\n400 checkin.already.validated\n`,
    );
  });
});
