/**
 * The host's timers behind TIMER_START / TIMER_CLEAR. A one-shot timer fires once with `done`;
 * an interval fires until cleared. Clearing an unknown id is a no-op (decision 17, docs/decisions.md). At
 * most `maxTimers` are pending at once: starting one more throws {@link TooManyTimersError}.
 *
 * Timers are kept as Node keeps its own (lib/internal/timers.js): one list per duration, in the
 * order they were started (so a list is also in order of when they are due), and a priority
 * queue of the lists by when their first timer is due; one Node timer is armed for the earliest.
 * They fire in Node's order: list by list, earliest first, each list in start order, with a
 * duration under 1 ms taken as 1 ms. Clearing a timer unlinks it, and an empty list leaves the
 * queue, so what the host holds grows with the live timers only. A script's 10,000 `setTimeout`
 * calls are then 10,000 list entries and one Node timer instead of 10,000 Node timers.
 */
export class HostTimers {
  /** Live timers by id. */
  readonly #byId = new Map<number, Timer>();
  /** One list per duration that has live timers. */
  readonly #lists = new Map<number, TimerList>();
  /** The lists by `expiry`, a binary heap. */
  readonly #queue: TimerList[] = [];
  #armed: NodeJS.Timeout | undefined;
  #armedFor = Number.POSITIVE_INFINITY;

  constructor(
    private readonly fire: (id: number, done: boolean) => void,
    private readonly maxTimers = Number.POSITIVE_INFINITY,
    /** The clock, in whole milliseconds; monotonic by default. */
    private readonly now: () => number = () => Math.floor(performance.now()),
  ) {}

  /** Timers that will still fire. */
  get size(): number {
    return this.#byId.size;
  }

  /** The timers' clock now, in whole milliseconds. */
  clock(): number {
    return this.now();
  }

  /**
   * Starts timer `id` (replacing one with the same id) after `duration` ms from `startedAt`,
   * repeating when `interval`. Timers the script started in one turn share its start time, as
   * Node's share the loop's time: the clock moving on between them (a loaded machine) must not
   * make a 20 ms timer started after a 30 ms one fire after it.
   */
  start(id: number, interval: boolean, duration: number, startedAt: number = this.now()): void {
    this.clear(id);
    if (this.#byId.size >= this.maxTimers) throw new TooManyTimersError(this.maxTimers);
    const ms = Number.isFinite(duration) && duration >= 1 ? Math.floor(duration) : 1;
    const timer: Timer = {
      id,
      interval,
      duration: ms,
      due: 0,
      list: undefined,
      previous: undefined,
      next: undefined,
    };
    this.#byId.set(id, timer);
    const now = startedAt;
    this.#append(timer, now);
    this.#arm(this.#queue[0]!.expiry, now);
  }

  /** Cancels timer `id`; does nothing when there is no such timer. */
  clear(id: number): void {
    const timer = this.#byId.get(id);
    if (timer === undefined) return;
    this.#byId.delete(id);
    this.#unlink(timer);
    if (this.#byId.size === 0) this.#disarm();
  }

  /** Cancels every timer (on exit). */
  clearAll(): void {
    this.#byId.clear();
    this.#lists.clear();
    this.#queue.length = 0;
    this.#disarm();
  }

  /** Adds a timer at the end of its duration's list, due `duration` ms from `now`. */
  #append(timer: Timer, now: number): void {
    timer.due = now + timer.duration;
    let list = this.#lists.get(timer.duration);
    if (list === undefined) {
      list = { duration: timer.duration, expiry: timer.due, position: 0, first: undefined, last: undefined };
      this.#lists.set(timer.duration, list);
      this.#push(list);
    }
    timer.list = list;
    timer.previous = list.last;
    timer.next = undefined;
    if (list.last) list.last.next = timer;
    else list.first = timer;
    list.last = timer;
  }

  /** Takes a timer out of its list; a list left empty leaves the queue, as in Node. */
  #unlink(timer: Timer): void {
    const list = timer.list;
    if (list === undefined) return;
    if (timer.previous) timer.previous.next = timer.next;
    else list.first = timer.next;
    if (timer.next) timer.next.previous = timer.previous;
    else list.last = timer.previous;
    timer.list = timer.previous = timer.next = undefined;
    if (list.first === undefined) {
      this.#lists.delete(list.duration);
      this.#remove(list);
    }
  }

  /** Makes sure the Node timer fires by `expiry`. */
  #arm(expiry: number, now: number): void {
    if (expiry >= this.#armedFor) return;
    clearTimeout(this.#armed);
    this.#armedFor = expiry;
    this.#armed = setTimeout(() => this.#run(), Math.max(1, expiry - now));
  }

  #disarm(): void {
    clearTimeout(this.#armed);
    this.#armed = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
  }

  /**
   * The Node timer fired: fires every timer that is due, in Node's order (list by list, earliest
   * expiry first, each list in start order), then arms for the next.
   */
  #run(): void {
    this.#armed = undefined;
    this.#armedFor = Number.POSITIVE_INFINITY;
    const now = this.now();
    for (let list = this.#queue[0]; list !== undefined; list = this.#queue[0]) {
      if (list.expiry > now) {
        this.#arm(list.expiry, now);
        return;
      }
      this.#runList(list, now);
    }
  }

  #runList(list: TimerList, now: number): void {
    for (let timer = list.first; timer !== undefined; timer = list.first) {
      if (timer.due > now) {
        list.expiry = timer.due;
        this.#siftDown(list.position);
        return;
      }
      // Unlinking the list's last timer takes the list out of the queue.
      this.#unlink(timer);
      if (timer.interval) {
        // As Node does: the next run is counted from now, at the end of its list.
        this.#append(timer, now);
      } else {
        this.#byId.delete(timer.id);
      }
      this.fire(timer.id, !timer.interval);
      if (timer.list === undefined && list.first === undefined) return;
      if (this.#queue[list.position] !== list) return; // the list left the queue (cleared)
    }
  }

  // ---- the priority queue of lists, by expiry ----

  #push(list: TimerList): void {
    list.position = this.#queue.length;
    this.#queue.push(list);
    this.#siftUp(list.position);
  }

  #remove(list: TimerList): void {
    const queue = this.#queue;
    if (queue[list.position] !== list) return;
    const last = queue.pop()!;
    if (last === list) return;
    queue[list.position] = last;
    last.position = list.position;
    this.#siftDown(last.position);
    this.#siftUp(last.position);
  }

  #siftUp(index: number): void {
    const queue = this.#queue;
    const list = queue[index]!;
    while (index > 0) {
      const parentIndex = (index - 1) >> 1;
      const parent = queue[parentIndex]!;
      if (parent.expiry <= list.expiry) break;
      queue[index] = parent;
      parent.position = index;
      index = parentIndex;
    }
    queue[index] = list;
    list.position = index;
  }

  #siftDown(index: number): void {
    const queue = this.#queue;
    const list = queue[index]!;
    for (;;) {
      let child = index * 2 + 1;
      if (child >= queue.length) break;
      if (child + 1 < queue.length && queue[child + 1]!.expiry < queue[child]!.expiry) child++;
      const smaller = queue[child]!;
      if (smaller.expiry >= list.expiry) break;
      queue[index] = smaller;
      smaller.position = index;
      index = child;
    }
    queue[index] = list;
    list.position = index;
  }
}

interface Timer {
  readonly id: number;
  readonly interval: boolean;
  /** Milliseconds, at least 1. */
  readonly duration: number;
  /** When it is due next (the clock's milliseconds). */
  due: number;
  /** The list it is in, and its neighbours there; none once fired for good or cleared. */
  list: TimerList | undefined;
  previous: Timer | undefined;
  next: Timer | undefined;
}

interface TimerList {
  readonly duration: number;
  /** When its first timer is due: its place in the queue. */
  expiry: number;
  /** Its index in the queue. */
  position: number;
  /** Its timers in start order, a doubly linked list. */
  first: Timer | undefined;
  last: Timer | undefined;
}

/** A script asked for more pending timers than the host keeps. */
export class TooManyTimersError extends Error {
  constructor(readonly limit: number) {
    super(`the script has more than ${limit} pending timers (--max-timers)`);
  }
}
