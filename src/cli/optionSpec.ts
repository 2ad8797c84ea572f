import { UsageError } from './usageError';

/** What an option's value must be; the parsed value is what the command gets. */
export type OptionValue =
  | { readonly kind: 'text' }
  | { readonly kind: 'int'; readonly min: number; readonly max?: number }
  | { readonly kind: 'number'; readonly min: number; readonly unit: string }
  | { readonly kind: 'ratio' }
  | { readonly kind: 'duration' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'int-list'; readonly min: number; readonly max: number };

/** One `--name` of a command: a flag, or an option with a value (`placeholder` in the usage text). */
export interface OptionSpec {
  readonly help: string;
  /** Absent: a boolean flag. */
  readonly value?: OptionValue;
  readonly placeholder?: string;
  /** May be given more than once (the command gets a list). */
  readonly multiple?: boolean;
  /** Shown without brackets in the usage line; the command checks it (its message names the alternatives). */
  readonly required?: boolean;
  readonly short?: string;
}

export type FlagValue = string | boolean | number | string[] | number[] | undefined;

export const flag = (help: string, short?: string): OptionSpec => ({ help, ...(short ? { short } : {}) });
export const text = (placeholder: string, help: string, extra: Partial<OptionSpec> = {}): OptionSpec => ({
  help,
  placeholder,
  value: { kind: 'text' },
  ...extra,
});
export const int = (placeholder: string, help: string, min: number, max?: number): OptionSpec => ({
  help,
  placeholder,
  value: { kind: 'int', min, ...(max !== undefined ? { max } : {}) },
});

/** `--name VALUE` as the usage shows it. */
export function optionSyntax(name: string, spec: OptionSpec): string {
  return spec.value ? `--${name} ${spec.placeholder ?? 'VALUE'}` : `--${name}`;
}

/** Checks and converts one option's text; a bad value is a usage error naming the option and what it takes. */
export function parseOptionValue(name: string, spec: OptionSpec, raw: string): string | number | number[] {
  const value = spec.value ?? { kind: 'text' };
  const bad = (takes: string): UsageError => new UsageError(`--${name} takes ${takes}, not "${raw}"`, false);
  switch (value.kind) {
    case 'text':
      return raw;
    case 'int': {
      const n = wholeNumber(raw);
      if (n === undefined || n < value.min || (value.max !== undefined && n > value.max)) {
        throw bad(
          value.max !== undefined
            ? `a whole number from ${value.min} to ${value.max}`
            : `a whole number, at least ${value.min}`,
        );
      }
      return n;
    }
    case 'number': {
      const n = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!Number.isFinite(n) || n < value.min) throw bad(`a number of ${value.unit}, at least ${value.min}`);
      return n;
    }
    case 'ratio': {
      const n = raw.trim() === '' ? Number.NaN : Number(raw);
      if (!(n > 0 && n <= 1)) throw bad('a ratio above 0 and at most 1 (e.g. 0.7)');
      return n;
    }
    case 'duration': {
      const ms = durationMs(raw);
      if (ms === undefined || ms < 60_000) throw bad('a duration of at least 1m, like 90m, 12h or 7d');
      return ms;
    }
    case 'enum':
      if (!value.values.includes(raw)) throw bad(`one of ${value.values.join(', ')}`);
      return raw;
    case 'int-list': {
      const list = raw.split(',').map(wholeNumber);
      if (list.some((n) => n === undefined || n < value.min || n > value.max))
        throw bad(`whole numbers from ${value.min} to ${value.max}, comma-separated`);
      return list as number[];
    }
  }
}

function wholeNumber(raw: string): number | undefined {
  return /^\s*\d+\s*$/.test(raw) ? Number(raw) : undefined;
}

/** `90m`, `12h`, `7d` → milliseconds. */
export function durationMs(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  return Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
}
