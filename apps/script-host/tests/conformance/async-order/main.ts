console.log("1 sync");
setTimeout(() => console.log("6 timeout"), 0);
Promise.resolve().then(() => console.log("3 promise"));
queueMicrotask(() => console.log("4 microtask"));
(async () => {
  console.log("2 async start");
  await null;
  console.log("5 after await");
})();

async function delay(ms: number): Promise<string> {
  await new Promise<void>((resolve) => setTimeout(resolve, ms));
  return `waited ${ms}`;
}

const results = await Promise.all([delay(20), delay(5)]);
console.log("7", results.join(", "));
for await (const value of [delay(1), Promise.resolve("plain")]) console.log("8", value);
