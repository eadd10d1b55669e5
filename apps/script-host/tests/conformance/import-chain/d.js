console.log("d");
export const d = "d";
