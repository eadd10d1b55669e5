import { describe, expect, it } from "vitest";
import { compilePlace, IN_PROCESS_MAX_CHARS, POOL_MAX_UNITS, THREAD_MAX_UNITS } from "./host-compiler.js";
import { syntaxUnits, unitsForStack } from "./nesting.js";

describe("syntaxUnits", () => {
  it("counts each run of word characters and each other character that is not ASCII white space", () => {
    expect(syntaxUnits("", 100)).toBe(0);
    expect(syntaxUnits("const x = 1;", 100)).toBe(5);
    expect(syntaxUnits("typeof typeof typeof x", 100)).toBe(4);
    expect(syntaxUnits("((((1))))", 100)).toBe(9);
    expect(syntaxUnits("a\t\n\r\v\fb", 100)).toBe(2);
  });

  it("does not skip strings, comments or regular expressions, which could hide nesting", () => {
    expect(syntaxUnits('"(((("', 100)).toBe(6);
    expect(syntaxUnits("/* (( */", 100)).toBe(6);
    expect(syntaxUnits('/"/; ((', 100)).toBe(6);
  });

  it("counts non-ASCII characters one by one, so that a non-ASCII space cannot join keywords", () => {
    expect(syntaxUnits("typeof\u00a0typeof\u3000x", 100)).toBe(5);
    expect(syntaxUnits("ééé", 100)).toBe(3);
  });

  it("stops counting at the limit it is given", () => {
    expect(syntaxUnits("(".repeat(1000), 10)).toBe(10);
  });
});

describe("where a module is compiled", () => {
  it("allows 16 KiB of stack per unit: 512 units on libuv's 8 MiB threads, 32,768 on the 512 MiB compile thread", () => {
    expect(POOL_MAX_UNITS).toBe(512);
    expect(THREAD_MAX_UNITS).toBe(32_768);
    expect(unitsForStack(8 * 1024 * 1024)).toBe(POOL_MAX_UNITS);
  });

  it("goes by the units, and sends large sources to the compiler process whatever their shape", () => {
    expect(compilePlace('const greeting: string = "hello";\nconsole.log(greeting);\n')).toBe("pool");
    expect(compilePlace("(".repeat(POOL_MAX_UNITS))).toBe("pool");
    expect(compilePlace("(".repeat(POOL_MAX_UNITS + 1))).toBe("thread");
    expect(compilePlace("(".repeat(THREAD_MAX_UNITS))).toBe("thread");
    expect(compilePlace("(".repeat(THREAD_MAX_UNITS + 1))).toBe("process");
    expect(compilePlace(`const s = "${"x".repeat(IN_PROCESS_MAX_CHARS)}";`)).toBe("process");
  });
});
