export const x: number = 1; export interface Foo { a: string }
