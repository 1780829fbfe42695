/**
 * Questions asked in the terminal, on standard error so that standard output stays the command's result. A
 * secret is read without echo. Without a terminal, answers are read line by line from standard input, so that a
 * script can pipe them in; a closed input is a usage error naming the flag that would have answered.
 */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';
import { UsageError } from '../errors.js';

export class Prompter {
  #lines: Interface | undefined;
  #waiting: ((line: string | undefined) => void)[] = [];
  #buffered: string[] = [];
  #closed = false;
  #muted = false;

  constructor(
    private readonly input: NodeJS.ReadStream = process.stdin,
    private readonly output: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Whether a person can answer (standard input is a terminal). */
  get interactive(): boolean {
    return this.input.isTTY === true;
  }

  /** Asks `question`; `flag` is named when no answer can come. */
  async ask(question: string, { hidden = false, flag }: { hidden?: boolean; flag: string }): Promise<string> {
    this.output.write(`${question} `);
    this.#muted = hidden && this.interactive;
    const answer = await this.#nextLine();
    // Ends the prompt's line where the terminal did not (no echo), or where no one typed (piped answers).
    if (this.#muted || !this.interactive) this.output.write('\n');
    this.#muted = false;
    if (answer === undefined) {
      throw new UsageError(`no answer to "${question}" (standard input is closed): pass ${flag}`);
    }
    return answer.trim();
  }

  /** A yes/no question; no is the default. */
  async confirm(question: string, flag: string): Promise<boolean> {
    return /^y(es)?$/i.test(await this.ask(`${question} [y/N]`, { flag }));
  }

  /** Lets the process end: an open interface keeps standard input open. */
  close(): void {
    this.#lines?.close();
  }

  #nextLine(): Promise<string | undefined> {
    this.#open();
    const buffered = this.#buffered.shift();
    if (buffered !== undefined) return Promise.resolve(buffered);
    if (this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  #open(): void {
    if (this.#lines) return;
    // Echo goes through here, so that a secret typed in the terminal is not shown.
    const echo = new Writable({
      write: (chunk, encoding, done) => {
        if (!this.#muted) this.output.write(chunk, encoding);
        done();
      },
    });
    this.#lines = createInterface({ input: this.input, output: echo, terminal: this.interactive });
    this.#lines.on('line', (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#buffered.push(line);
    });
    // In a terminal, readline takes Ctrl-C for itself: give it its usual meaning back.
    this.#lines.on('SIGINT', () => {
      this.output.write('\n');
      process.exit(130);
    });
    this.#lines.on('close', () => {
      this.#closed = true;
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }
}
