const log = (label: string) => () => console.log(label);
setTimeout(log("30ms"), 30);
setTimeout(log("10ms"), 10);
setTimeout(log("0ms first"), 0);
setTimeout(log("0ms second"), 0);
setTimeout(log("20ms"), 20);
setTimeout((a: string, b: number) => console.log("args", a, b), 5, "x", 1);
console.log("sync");
