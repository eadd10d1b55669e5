import kiln from "kiln";

let n = 0;
setInterval(() => {
  n++;
  console.log("tick", n);
  if (n === 2) kiln.exit(0);
}, 1);
