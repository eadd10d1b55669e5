let fires = 0;
const id = setInterval(() => {
  fires++;
  console.log("tick", fires);
  if (fires === 3) {
    clearInterval(id);
    console.log("cleared");
  }
}, 5);
const never = setTimeout(() => console.log("never printed"), 10);
clearTimeout(never);
clearTimeout(12345);
clearInterval(undefined);
setTimeout(() => console.log("done, fires =", fires), 60);
