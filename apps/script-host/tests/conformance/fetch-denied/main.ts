try {
  await fetch("{{ORIGIN}}/data.json");
  console.log("fetched without permission");
} catch (error) {
  console.log((error as Error).name, "-", (error as Error).message);
}
