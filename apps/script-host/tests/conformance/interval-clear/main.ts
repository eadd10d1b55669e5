let fires = 0;
const id = setInterval(() => {
  fires++;
  console.log("tick", fires);
  if (fires === 3) {
    clearInterval(id);
    console.log("cleared");
    // Started after the clear: a cleared interval that still fired would show up before this.
    setTimeout(() => console.log("done, fires =", fires), 30);
  }
}, 5);
const never = setTimeout(() => console.log("never printed"), 10);
clearTimeout(never);
clearTimeout(12345);
clearInterval(undefined);
