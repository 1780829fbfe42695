/**
 * Where a command's output goes. For a person: lines on standard output, colour only on a terminal (and never
 * with `NO_COLOR`), a progress bar on standard error for transfers of many files. For a script (`--json`): one
 * JSON document on standard output (one per line for `watch`), nothing else there. Errors are one line on
 * standard error either way.
 */
import { styleText } from 'node:util';
import { NO_PROGRESS, type Progress, progressBar } from './progress.js';

type Style = Parameters<typeof styleText>[0];

/** Transfers of fewer files print their lines and need no bar. */
const BAR_FROM = 10;

export interface OutputOptions {
  json: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
  env?: NodeJS.ProcessEnv;
}

export class Output {
  readonly json: boolean;
  readonly stdout: NodeJS.WriteStream;
  readonly stderr: NodeJS.WriteStream;
  readonly #color: boolean;

  constructor({ json, stdout = process.stdout, stderr = process.stderr, env = process.env }: OutputOptions) {
    this.json = json;
    this.stdout = stdout;
    this.stderr = stderr;
    const forced = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0';
    this.#color = !json && env.NO_COLOR === undefined && env.TERM !== 'dumb' && (forced || stdout.isTTY === true);
  }

  /** A line for a person; nothing with `--json`. */
  line(text = ''): void {
    if (!this.json) this.stdout.write(`${text}\n`);
  }

  /** A line about the work rather than its result (a URL to open, a hint): standard error, so it survives `--json`. */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }

  /** The command's result for a script: one JSON document, on a line of its own. */
  document(value: unknown): void {
    if (this.json) this.stdout.write(`${JSON.stringify(value)}\n`);
  }

  paint(style: Style, text: string): string {
    // The decision is the constructor's; styleText would otherwise make its own from process.stdout and the
    // environment (no colour at all under `CI`, even on a terminal).
    return this.#color ? styleText(style, text, { validateStream: false }) : text;
  }

  /** A progress bar for a transfer of `total` files, drawn only where a person watches and only for many files. */
  progress(total: number, label: string): Progress {
    return this.json || total < BAR_FROM ? NO_PROGRESS : progressBar(this.stderr, label);
  }
}
