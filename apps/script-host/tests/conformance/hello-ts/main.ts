interface Greeting {
  readonly to: string;
  readonly times: number;
}

enum Mood {
  Happy = "happy",
  Calm = "calm",
}

class Greeter<T extends Greeting> {
  constructor(private readonly greeting: T) {}

  text(mood: Mood): string {
    return `hello ${this.greeting.to} (${mood}) x${this.greeting.times}`;
  }
}

const greeter = new Greeter({ to: "typescript", times: 2 } satisfies Greeting);
console.log(greeter.text(Mood.Happy));
console.log(typeof Mood, Mood.Calm);
