/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4): every line must be a HELP, a TYPE,
 * or a sample of a family whose TYPE came first; anything else throws, so "it parses" means something.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly value: number;
}

export interface Exposition {
  readonly types: Map<string, string>;
  readonly help: Map<string, string>;
  readonly samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(?:,|$)/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', ''];

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const match = LABEL.exec(rest);
    if (match === null) throw new Error(`malformed labels in: ${line}`);
    const [whole, name = '', value = ''] = match;
    if (name in labels) throw new Error(`label ${name} twice in: ${line}`);
    labels[name] = value.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    rest = rest.slice(whole.length);
  }
  return labels;
}

/** As Go's ParseFloat reads it (the format's definition): NaN and Inf in any case, Inf with a sign or none. */
function parseValue(text: string, line: string): number {
  if (/^nan$/i.test(text)) return NaN;
  const infinity = /^([+-]?)inf(inity)?$/i.exec(text);
  if (infinity !== null) return infinity[1] === '-' ? -Infinity : Infinity;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`malformed value in: ${line}`);
  return value;
}

/** The family a sample belongs to: its own name, or the name without a histogram/summary/counter suffix. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  for (const suffix of SUFFIXES) {
    if (name.endsWith(suffix) && types.has(name.slice(0, name.length - suffix.length))) {
      return name.slice(0, name.length - suffix.length);
    }
  }
  return undefined;
}

export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
    if (comment !== null) {
      const [, kind, name = '', rest = ''] = comment;
      if (kind === 'TYPE' && !TYPES.has(rest)) throw new Error(`unknown type in: ${line}`);
      (kind === 'TYPE' ? types : help).set(name, rest);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (match === null) throw new Error(`not a sample: ${line}`);
    const [, name = '', labels = '', value = ''] = match;
    if (familyOf(name, types) === undefined) throw new Error(`sample before its TYPE: ${line}`);
    samples.push({ name, labels: parseLabels(labels, line), value: parseValue(value, line) });
  }
  return { types, help, samples };
}

/** The samples of one metric, keyed by their labels (in a stable order), for a whole-value toEqual. */
export function seriesOf(exposition: Exposition, name: string): Record<string, number> {
  const series: Record<string, number> = {};
  for (const sample of exposition.samples.filter((candidate) => candidate.name === name)) {
    const key = Object.entries(sample.labels)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([label, value]) => `${label}=${value}`)
      .join(',');
    series[key] = sample.value;
  }
  return series;
}
