import type { Session } from '../session.js';

/** A sequence of requests run against each target; its own assertions check it exercised what it names. */
export interface ContractCase {
  name: string;
  run(session: Session): Promise<void>;
}
