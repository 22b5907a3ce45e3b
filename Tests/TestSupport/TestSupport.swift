/// Helpers that start and stop the real parts the tests run against.
public enum TestSupport {}
