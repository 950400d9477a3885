"""umbench's scripts: umb-run, umb-compare, umb-tune and umb-plot are thin
commands over this package (docs/decisions.md, "The scripts' package").

Each module owns one thing:
  fail      Fail, the failure a command says in one line (below everything)
  cli       what every command shares: one-line errors, exit statuses, option checks
  paths     the folders and files a command writes or reads by name: made, checked, locked
  results   the results folder: its only reader and only writer
  schema    every JSON file checked against its schema (regular files only); run.json read (read_manifest)
  stats     medians, order-statistic intervals, verdicts, the comparisons and their control over a table
  findings  findings over a folder's results
  compare   comparisons between sides, and the umb-compare command
  plot      pictures, and the umb-plot command
  launch    finding the launcher and the programs, how a configuration's runs start
  watch     running one program: its output, its stop (every process of its session), its time
  env       the one reader of the environment: every variable, typed and checked once
  sets      the named sets of benchmarks and buffer pairs
  run       the umb-run command, the only holder of the run: it runs the plan launch by launch,
            says what happens and keeps run.json; run_args its command line, run.json's start and
            its plan; pairs the launches; records what a run that ended says; rounds when
            --precision ends the rounds; configs --config and --build; judge whether one run's
            output is whole; timing where umb-run's time went
  installed what the installed MPI and UCX know
  tune      the explorer, umb-tune; tune_rank the order of its settings; tune_plan its budget and
            race; tune_report its report
"""
