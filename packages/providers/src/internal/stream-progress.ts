/** Progress of one attempt, shared with the error mapper. */
export interface StreamProgress {
  /** Set when the first event of the response arrived. */
  responseStarted: boolean;
}
