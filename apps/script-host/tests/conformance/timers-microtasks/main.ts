setTimeout(() => {
  Promise.resolve()
    .then(() => console.log("micro 1"))
    .then(() => console.log("micro 1b"));
  console.log("timer 1");
}, 0);
setTimeout(() => console.log("timer 2"), 0);
setTimeout(async () => {
  await null;
  await null;
  console.log("async 3");
}, 0);
setTimeout(() => console.log("timer 4"), 0);
