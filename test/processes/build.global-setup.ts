import { execFileSync } from 'node:child_process';

/** Process tests run the built CLI and console, exactly as `./gatehouse serve` would: build them once first. */
export default function setup(): void {
  execFileSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
  execFileSync('npm', ['run', '--silent', 'build:cli'], { stdio: 'inherit' });
  execFileSync('npx', ['vite', 'build', '--config', 'console/vite.config.ts'], { stdio: 'inherit' });
}
