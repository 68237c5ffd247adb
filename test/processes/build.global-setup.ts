import { execFileSync } from 'node:child_process';

/** Process tests run the built CLI, exactly as `./gatehouse serve` would: build it once first. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
}
