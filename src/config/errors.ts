/** A bad GATEHOUSE_* setting. Its own module, so the CLI can recognise it without loading the validator. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
