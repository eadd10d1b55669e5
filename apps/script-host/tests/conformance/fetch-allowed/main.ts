const res = await fetch("{{ORIGIN}}/data.json");
console.log(res.status, res.ok, res.headers.get("Content-Type"), res.headers.get("x-kiln-test"));
const data = (await res.json()) as { items: number[] };
console.log(data.items.join("+"));
const text = await (await fetch(new URL("/hello.txt", "{{ORIGIN}}"))).text();
console.log(JSON.stringify(text));
const bytes = new Uint8Array(await (await fetch("{{ORIGIN}}/hello.txt")).arrayBuffer());
console.log(bytes.length);
const missing = await fetch("{{ORIGIN}}/missing");
console.log(missing.status, missing.ok, await missing.text());
try {
  await fetch("http://127.0.0.1:1/refused");
} catch (error) {
  console.log("refused:", (error as Error).name);
}
