@echo off
rem gradcheck launcher for Windows, from the distribution archive: lib\ beside this bin\ directory.
rem JAVA_OPTS and GRADCHECK_OPTS are passed to the JVM (GRADCHECK_OPTS last, so it wins).
rem Unlike bin/gradcheck it cannot hand the report a file descriptor of its own: libnd4j's rare native
rem diagnostics may reach stdout; use --output FILE for a report a program reads.
setlocal
set "GRADCHECK_HOME=%~dp0.."
if not defined OMP_NUM_THREADS set "OMP_NUM_THREADS=1"
if not defined BACKEND_PRIORITY_CPU set "BACKEND_PRIORITY_CPU=100"
if not defined BACKEND_PRIORITY_GPU set "BACKEND_PRIORITY_GPU=0"
set "JAVA_EXE=java"
if defined JAVA_HOME set "JAVA_EXE=%JAVA_HOME%\bin\java"
"%JAVA_EXE%" -XX:TieredStopAtLevel=1 %JAVA_OPTS% %GRADCHECK_OPTS% -cp "%GRADCHECK_HOME%\lib\*" dev.gradcheck.cli.Main %*
exit /b %ERRORLEVEL%
