/// Thrown by a writer that has written more than the limit it was given; the caller turns
/// it into `output-too-large`, naming the limit.
struct OutputLimitReached: Error {}
