export const version = 3;
