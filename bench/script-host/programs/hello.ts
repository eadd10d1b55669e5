const greeting: string = "hello, world";
console.log(greeting);
