import type { GlobNode } from "./glob-syntax.js";

/**
 * A glob compiled to a Thompson automaton and run by keeping the set of states it can be in: each
 * character of the subject visits every state at most once, so a match costs at most
 * (states × characters) steps — linear in the pattern and in the subject, never the exponential
 * backtracking of a regular expression. Alternatives share their continuation instead of being
 * expanded, so `{a,b}{c,d}…` stays as small as it is written.
 */

/** What a consuming state accepts. */
type Test =
  | { readonly kind: "char"; readonly char: string }
  | { readonly kind: "any" }
  | { readonly kind: "other"; readonly separators: string }
  | {
      readonly kind: "class";
      readonly negated: boolean;
      readonly ranges: readonly (readonly [string, string])[];
    }
  | { readonly kind: "none" };

interface State {
  /** Consuming: the test of one character and the state after it. */
  test?: Test;
  next: number;
  /** Epsilon moves (consumed nothing). */
  also?: number[];
}

/** Total steps every automaton in this process has taken; tests read it to bound matching work. */
let steps = 0;

/** Steps taken by every glob match in this process so far (a work counter, for tests). */
export function globSteps(): number {
  return steps;
}

const ACCEPT = 0;

/** A compiled glob: its states, state 0 accepting. */
export class GlobAutomaton {
  readonly #states: State[] = [{ next: -1 }];
  readonly #start: number;
  /** Per state, the generation in which it was last added (no state is added twice per character). */
  readonly #seen: Int32Array;
  #generation = 0;

  constructor(nodes: readonly GlobNode[], separators: string) {
    this.#start = this.#sequence(nodes, ACCEPT, separators);
    this.#seen = new Int32Array(this.#states.length);
  }

  /** How many states the automaton has (the bound on work per character). */
  get size(): number {
    return this.#states.length;
  }

  #add(state: State): number {
    this.#states.push(state);
    return this.#states.length - 1;
  }

  /** Compiles `nodes` so that they end in `next`; resolves with their first state. */
  #sequence(nodes: readonly GlobNode[], next: number, separators: string): number {
    let at = next;
    for (let k = nodes.length - 1; k >= 0; k--) at = this.#node(nodes[k] as GlobNode, at, separators);
    return at;
  }

  #node(node: GlobNode, next: number, separators: string): number {
    switch (node.kind) {
      case "char":
        return this.#add({ test: { kind: "char", char: node.char }, next });
      case "single":
        return this.#add({ test: anyOf(separators), next });
      case "class":
        return this.#add({ test: { kind: "class", negated: node.negated, ranges: node.ranges }, next });
      case "never":
        return this.#add({ test: { kind: "none" }, next });
      case "star":
        return this.#loop(node.crosses ? { kind: "any" } : anyOf(separators), next);
      case "dirs": {
        // No directory, or any run of characters ending in `/`.
        const slash = this.#add({ test: { kind: "char", char: "/" }, next });
        const loop = this.#loop({ kind: "any" }, slash);
        return this.#add({ next: -1, also: [next, loop] });
      }
      case "alt": {
        const starts = node.branches.map((branch) => this.#sequence(branch, next, separators));
        return this.#add({ next: -1, also: starts });
      }
    }
  }

  /** Any number of characters passing `test`, then `next`. */
  #loop(test: Test, next: number): number {
    const split = this.#add({ next: -1, also: [next] });
    const step = this.#add({ test, next: split });
    (this.#states[split] as State).also?.push(step);
    return split;
  }

  /** Adds `from` and every state reachable from it without consuming to `into`. */
  #close(from: number, into: number[]): void {
    const stack = [from];
    while (stack.length > 0) {
      const at = stack.pop() as number;
      if (this.#seen[at] === this.#generation) continue;
      this.#seen[at] = this.#generation;
      steps++;
      const state = this.#states[at] as State;
      if (state.also) for (const to of state.also) stack.push(to);
      else into.push(at);
    }
  }

  /** Whether the whole of `subject` matches. */
  matches(subject: string): boolean {
    this.#generation++;
    let current: number[] = [];
    this.#close(this.#start, current);
    for (const ch of subject) {
      if (current.length === 0) return false;
      this.#generation++;
      const next: number[] = [];
      for (const at of current) {
        steps++;
        const state = this.#states[at] as State;
        if (state.test && passes(state.test, ch)) this.#close(state.next, next);
      }
      current = next;
    }
    return current.includes(ACCEPT);
  }
}

function anyOf(separators: string): Test {
  return separators === "" ? { kind: "any" } : { kind: "other", separators };
}

function passes(test: Test, ch: string): boolean {
  switch (test.kind) {
    case "char":
      return test.char === ch;
    case "any":
      return true;
    case "other":
      return !test.separators.includes(ch);
    case "class": {
      steps += test.ranges.length;
      let inside = false;
      for (const [lo, hi] of test.ranges) {
        if (ch >= lo && ch <= hi) {
          inside = true;
          break;
        }
      }
      return inside !== test.negated;
    }
    case "none":
      return false;
  }
}
