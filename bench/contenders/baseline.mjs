// Not a client: it builds the same inputs and sends nothing, so its peak RSS is what every
// contender holds before it does any work (for "extra memory" next to the body size).
export async function createContender() {
  return {
    train: async () => ({ id: "none", bytes: Number.POSITIVE_INFINITY }),
  };
}
