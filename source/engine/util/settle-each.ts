/**
 * Waits for every promise, then throws the first one's failure, if any. `made` sees each value
 * first, so that what the others made is kept to be released even when one failed (a lane's copy,
 * its sandbox), and no work is left running after the throw (a lane's pytest process).
 */
export async function settleEach<T>(
  promises: readonly Promise<T>[],
  made: (value: T, index: number) => void = () => undefined,
): Promise<T[]> {
  const settled = await Promise.allSettled(promises);
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') made(result.value, index);
  });
  const failed = settled.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
}
