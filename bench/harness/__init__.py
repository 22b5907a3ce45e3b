"""The pieces of bench/compare: corpora, servers, contenders, measuring, the runs, the report."""
