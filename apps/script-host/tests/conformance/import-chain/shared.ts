console.log("shared evaluated");
export const shared = { count: 0 };
