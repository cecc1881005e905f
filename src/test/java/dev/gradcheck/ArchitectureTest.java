package dev.gradcheck;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.gradcheck.spi.Operator;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;

/**
 * The package rules docs/ARCHITECTURE.md states, held on the main classes: the rooms use only the rooms their arrows
 * lead to; the front end (cli/, run/, report/, spec/, result/, and the front end's sides of backend/ and op/) reaches
 * no ND4J class by any chain of links; result/ is a leaf; check/ knows nothing of how checks are dispatched or shown;
 * api/, spi/ and result/ are the public surface and expose nothing else; no two packages depend on each other.
 */
@AnalyzeClasses(packages = "dev.gradcheck",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class ArchitectureTest {

    private static final String[] ND4J = {"org.nd4j..", "org.bytedeco..", "org.deeplearning4j.."};

    /** The front end: what a worker run's first JVM loads (the front end's sides of backend/ and op/ included). */
    private static final String[] FRONT_END = {"dev.gradcheck.cli..", "dev.gradcheck.run..", "dev.gradcheck.report..",
        "dev.gradcheck.spec..", "dev.gradcheck.result..", "dev.gradcheck.backend", "dev.gradcheck.op.plugin..",
        "dev.gradcheck.op.catalog..", "dev.gradcheck.junit.."};

    private static final String BENCH_COMMAND = "dev.gradcheck.cli.BenchCommand";

    @ArchTest
    static final ArchRule noNd4jInCliReportSpecResultRun = noClasses()
            .that().resideInAnyPackage("dev.gradcheck.cli..", "dev.gradcheck.report..", "dev.gradcheck.spec..",
                    "dev.gradcheck.result..", "dev.gradcheck.run..")
            .should().dependOnClassesThat().resideInAnyPackage(ND4J)
            .because("ND4J is confined to op/, check/ and backend/: the front end of a worker run never loads it");

    @ArchTest
    static final ArchRule resultIsALeaf = classes()
            .that().resideInAPackage("dev.gradcheck.result..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dev.gradcheck.result..", "java..")
            .because("result records are plain data: no ND4J, no Jackson annotations, nothing else of gradcheck");

    @ArchTest
    static final ArchRule checkKnowsNothingOfDispatchOrPresentation = noClasses()
            .that().resideInAPackage("dev.gradcheck.check..")
            .should().dependOnClassesThat().resideInAnyPackage("dev.gradcheck.cli..", "dev.gradcheck.report..",
                    "dev.gradcheck.backend..", "dev.gradcheck.run..")
            .because("check/ computes one check; where it runs and how it is shown are other rooms' business");

    @ArchTest
    static final ArchRule theSpiIsTheContractAlone = classes()
            .that().resideInAPackage("dev.gradcheck.spi..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("dev.gradcheck.spi..", "java..",
                    "org.nd4j.linalg.api.ndarray..")
            .because("a plugin compiles against the Operator contract and INDArray, nothing internal");

    @ArchTest
    static final ArchRule nothingInsideDependsOnTheApi = noClasses()
            .that().resideOutsideOfPackage("dev.gradcheck.api..")
            .should().dependOnClassesThat().resideInAPackage("dev.gradcheck.api..")
            .because("api/ is the entry point for users' code, on top of everything else");

    @ArchTest
    static final ArchRule thePublicSurfaceExposesOnlyPublicTypes = methods()
            .that().areDeclaredInClassesThat(publicSurface()).and().arePublic()
            .and().areDeclaredInClassesThat().arePublic()
            .should(mentionOnlyPublicTypes())
            .because("api/, spi/ and result/ are the public surface: what they take and return must be too");

    /**
     * The library's promise (docs/library-api.md): GradCheck and everything it reaches need none of the command
     * line's optional dependencies, so a user's test class path can go without them (nor the YAML reader, which
     * only the spec engine needs).
     */
    @ArchTest
    static final ArchRule theLibraryNeedsNoCliDependency = noClasses()
            .that().resideInAnyPackage("dev.gradcheck.api..", "dev.gradcheck.spi..", "dev.gradcheck.result..")
            .should().transitivelyDependOnClassesThat().resideInAnyPackage("picocli..", "org.jline..",
                    "com.fasterxml.jackson.dataformat.yaml..", "org.yaml.snakeyaml..", "org.slf4j.impl..")
            .because("picocli, JLine and slf4j-simple are optional: they do not follow the library into a user's"
                    + " project (examples/library-test)");

    /**
     * The spec engine runs in a user's test JVM with the library's dependencies (the YAML reader among them,
     * docs/library-api.md): none of the command line's others.
     */
    @ArchTest
    static final ArchRule theSpecEngineNeedsOnlyTheYamlReader = noClasses()
            .that().resideInAnyPackage("dev.gradcheck.junit..")
            .should().transitivelyDependOnClassesThat().resideInAnyPackage("picocli..", "org.jline..",
                    "org.slf4j.impl..")
            .because("picocli, JLine and slf4j-simple are optional and the engine's users do not add them");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.gradcheck.(*)..").should().beFreeOfCycles();

    /** Sub-packages too (cli's rooms, op/'s and backend/'s sides): a cycle inside one room fails as well. */
    @ArchTest
    static final ArchRule noCyclesBetweenAnyTwoPackages = slices().matching("dev.gradcheck.(**)").should()
            .beFreeOfCycles();

    /**
     * The arrows of docs/ARCHITECTURE.md: each room uses only the rooms they lead to, directly or through another.
     * The front end's rooms (cli's, run, backend, report) skip the ND4J sides: op and backend/nd4j are for check/,
     * bench/ and api/. check/ is below backend/ in the front end's lists because a check that never ran is reported
     * from check's own words (check.Unfinished); that it stays clear of ND4J is the next rule's to hold.
     */
    @ArchTest
    static final ArchRule roomsUseOnlyTheRoomsTheirArrowsLeadTo = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitecture()
            .layer("api").definedBy("dev.gradcheck.api..")
            .layer("build").definedBy("dev.gradcheck.build..")
            .layer("junit").definedBy("dev.gradcheck.junit..")
            .layer("cli").definedBy("dev.gradcheck.cli")
            .layer("cli.shell").definedBy("dev.gradcheck.cli.shell..")
            .layer("cli.output").definedBy("dev.gradcheck.cli.output..")
            .layer("cli.term").definedBy("dev.gradcheck.cli.term..")
            .layer("cli.options").definedBy("dev.gradcheck.cli.options..")
            .layer("bench").definedBy("dev.gradcheck.bench..")
            .layer("run").definedBy("dev.gradcheck.run..")
            .layer("report").definedBy("dev.gradcheck.report..")
            .layer("backend.nd4j").definedBy("dev.gradcheck.backend.nd4j..")
            .layer("backend").definedBy("dev.gradcheck.backend")
            .layer("check").definedBy("dev.gradcheck.check..")
            .layer("op").definedBy("dev.gradcheck.op")
            .layer("op.plugin").definedBy("dev.gradcheck.op.plugin..")
            .layer("op.catalog").definedBy("dev.gradcheck.op.catalog..")
            .layer("spi").definedBy("dev.gradcheck.spi..")
            .layer("spec").definedBy("dev.gradcheck.spec..")
            .layer("result").definedBy("dev.gradcheck.result..")
            .whereLayer("api").mayOnlyAccessLayers("backend.nd4j", "backend", "check", "op", "op.plugin",
                    "op.catalog", "spi", "spec", "report", "result")
            .whereLayer("build").mayOnlyAccessLayers(frontEnd("cli", "cli.shell", "cli.output", "cli.term",
                    "cli.options", "run", "report"))
            .whereLayer("junit").mayOnlyAccessLayers(frontEnd("run", "report"))
            .whereLayer("cli").mayOnlyAccessLayers(frontEnd("cli.shell", "cli.output", "cli.term", "cli.options",
                    "run", "report", "bench"))
            .whereLayer("cli.shell").mayOnlyAccessLayers(frontEnd("cli.output", "cli.term", "cli.options", "run",
                    "report"))
            .whereLayer("cli.output").mayOnlyAccessLayers(frontEnd("cli.term", "cli.options", "run", "report"))
            .whereLayer("cli.term").mayOnlyAccessLayers(frontEnd("cli.options", "run", "report"))
            .whereLayer("cli.options").mayOnlyAccessLayers(frontEnd("run", "report"))
            .whereLayer("run").mayOnlyAccessLayers(frontEnd())
            .whereLayer("backend").mayOnlyAccessLayers("check", "op.plugin", "op.catalog", "spec", "result")
            .whereLayer("report").mayOnlyAccessLayers("result")
            .whereLayer("bench").mayOnlyAccessLayers("backend.nd4j", "backend", "check", "op", "op.plugin",
                    "op.catalog", "spi", "spec", "result")
            .whereLayer("backend.nd4j").mayOnlyAccessLayers("backend", "check", "op", "op.plugin", "op.catalog",
                    "spi", "spec", "result")
            .whereLayer("check").mayOnlyAccessLayers("op", "op.plugin", "op.catalog", "spi", "spec", "result")
            .whereLayer("op").mayOnlyAccessLayers("op.plugin", "op.catalog", "spi", "spec", "result")
            .whereLayer("op.plugin").mayOnlyAccessLayers("op.catalog", "spi", "spec", "result")
            .whereLayer("op.catalog").mayOnlyAccessLayers("spec", "result")
            .whereLayer("spi").mayNotAccessAnyLayer()
            .whereLayer("spec").mayOnlyAccessLayers("result")
            .whereLayer("result").mayNotAccessAnyLayer()
            .whereLayer("api").mayNotBeAccessedByAnyLayer()
            .whereLayer("build").mayNotBeAccessedByAnyLayer()
            .whereLayer("junit").mayNotBeAccessedByAnyLayer();

    /**
     * check/'s rooms (docs/ARCHITECTURE.md, "Inside check/"), each using only the rooms below it: the numerics at the
     * bottom know no Jacobian, target or judge; whole Jacobians and the target with its settings stand on the
     * numerics alone; the dense judge judges blocks with the numerics' rule and nothing else; the colourings compress
     * and decompress whole Jacobians; the two-sided run combines colourings with the dense judge's probes; full mode
     * chooses among the two-sided, compressed and dense paths; fast mode falls back to full mode for what it flags;
     * check/ itself ties the modes to a spec. A room may skip floors but never look up, so no two rooms form a cycle
     * and a change to a mode never reaches the numerics it stands on.
     */
    @ArchTest
    static final ArchRule checksRoomsUseOnlyTheRoomsBelow = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .ensureAllClassesAreContainedInArchitectureIgnoring(DescribedPredicate.describe("outside check/",
                    (JavaClass c) -> !c.getPackageName().startsWith("dev.gradcheck.check")))
            .layer("check").definedBy("dev.gradcheck.check")
            .layer("check.fast").definedBy("dev.gradcheck.check.fast..")
            .layer("check.full").definedBy("dev.gradcheck.check.full..")
            .layer("check.twosided").definedBy("dev.gradcheck.check.twosided..")
            .layer("check.colouring").definedBy("dev.gradcheck.check.colouring..")
            .layer("check.dense").definedBy("dev.gradcheck.check.dense..")
            .layer("check.jacobian").definedBy("dev.gradcheck.check.jacobian..")
            .layer("check.target").definedBy("dev.gradcheck.check.target..")
            .layer("check.numeric").definedBy("dev.gradcheck.check.numeric..")
            .whereLayer("check.fast").mayOnlyAccessLayers("check.full", "check.dense", "check.jacobian",
                    "check.target", "check.numeric")
            .whereLayer("check.full").mayOnlyAccessLayers("check.twosided", "check.colouring", "check.dense",
                    "check.jacobian", "check.target", "check.numeric")
            .whereLayer("check.twosided").mayOnlyAccessLayers("check.colouring", "check.dense", "check.jacobian",
                    "check.target", "check.numeric")
            .whereLayer("check.colouring").mayOnlyAccessLayers("check.jacobian", "check.target", "check.numeric")
            .whereLayer("check.dense").mayOnlyAccessLayers("check.numeric")
            .whereLayer("check.jacobian").mayOnlyAccessLayers("check.numeric")
            .whereLayer("check.target").mayOnlyAccessLayers("check.numeric")
            .whereLayer("check.numeric").mayNotAccessAnyLayer()
            .whereLayer("check").mayNotBeAccessedByAnyLayer()
            .because("check/'s rooms are floors: each uses only those below it (docs/ARCHITECTURE.md)");

    /**
     * Inside each of check/'s rooms, no two classes depend on each other, directly or around a loop (a class and its
     * nested classes count as one): the package rules above see only arrows between rooms, and a cycle inside one
     * (a judge and its ties, a comparison and its bounds) makes a class that cannot be read, tested or moved alone.
     */
    @ArchTest
    static final ArchRule noClassCyclesInsideChecksRooms = slices()
            .assignedFrom(new SliceAssignment() {
                @Override
                public SliceIdentifier getIdentifierOf(JavaClass c) {
                    if (!c.getPackageName().startsWith("dev.gradcheck.check")) {
                        return SliceIdentifier.ignore();
                    }
                    JavaClass top = c;
                    while (top.getEnclosingClass().isPresent()) {
                        top = top.getEnclosingClass().get();
                    }
                    return SliceIdentifier.of(top.getName());
                }

                @Override
                public String getDescription() {
                    return "the top-level classes of check/, each with its nested classes";
                }
            })
            .should().beFreeOfCycles()
            .because("a class of check/ is read, tested and moved alone (docs/ARCHITECTURE.md, \"Inside check/\")");

    /**
     * The two-sided run's phases (docs/checking.md, "Both sides compressed") are handed the run as data and return
     * what they found: none holds or calls the orchestrator that runs them, so that the rounds of locating are its
     * alone and a phase can be read without it.
     */
    @ArchTest
    static final ArchRule theTwoSidedPhasesDoNotKnowTheirOrchestrator = noClasses()
            .that().resideInAPackage("dev.gradcheck.check.twosided")
            .and().haveNameNotMatching("dev\\.gradcheck\\.check\\.twosided\\.TwoSidedCompression(\\$.*)?")
            .should().dependOnClassesThat()
            .haveNameMatching("dev\\.gradcheck\\.check\\.twosided\\.TwoSidedCompression(\\$.*)?")
            .because("each phase reads the run (TwoSidedRun) and returns what it found; the orchestrator owns the"
                    + " order of the phases and the rounds of locating");

    /**
     * The front end of a worker run never loads ND4J, and no chain of links from its classes leads there: the rule
     * above and the direct one only see one step. Two classes are doors, followed no further: spi's Operator (its
     * forward and backward take INDArrays; the front end loads plugins for their names and calls only the methods
     * that take none, which the next rule holds), and cli's BenchCommand (gradcheck bench measures checks in its own
     * JVM, by design; only Main registers it). What is reached by name at run time (BackendFactory.CPU's engine,
     * the worker's main class, the op catalog's scan on a class path without the build's catalog) is not a link:
     * NamedByTheFrontEndTest and OpCatalogTest hold the names, CollectOnlyTest and NoNd4jCommandsTest (slow) watch
     * the JVMs themselves.
     */
    @ArchTest
    static final ArchRule theFrontEndReachesNoNd4j = classes()
            .that().resideInAnyPackage(FRONT_END).and().doNotHaveFullyQualifiedName(BENCH_COMMAND)
            .should(reachNoClassOf(ND4J, Operator.class.getName(), BENCH_COMMAND))
            .because("a worker run's front end never loads ND4J (ARCHITECTURE.md): the worker does");

    @ArchTest
    static final ArchRule theFrontEndCallsOnlyAPluginsMetadata = noClasses()
            .that().resideInAnyPackage(FRONT_END)
            .should().callMethodWhere(DescribedPredicate.describe("an Operator method taking or returning ND4J types",
                    ArchitectureTest::callsOperatorWithNd4j))
            .because("a plugin's forward, backward and jvp run where ND4J is: the front end reads its names");

    @ArchTest
    static final ArchRule onlyMainRegistersTheBenchCommand = classes()
            .that().haveFullyQualifiedName(BENCH_COMMAND)
            .should().onlyHaveDependentClassesThat()
            .haveNameMatching("dev\\.gradcheck\\.cli\\.(Main|BenchCommand)(\\$.*)?")
            .because("BenchCommand is the front end's one door to ND4J that the transitive rule lets through");

    /** The given rooms and those every front-end room may use below run/: none of them loads ND4J. */
    private static String[] frontEnd(String... rooms) {
        List<String> all = new ArrayList<>(List.of(rooms));
        all.addAll(List.of("backend", "check", "op.plugin", "op.catalog", "spec", "result"));
        return all.toArray(String[]::new);
    }

    /**
     * Follows every dependency from a class (fields, signatures, calls, constants' owners, annotations), and from
     * each class reached, up to a class of the given packages; the doors are reached but not followed.
     */
    private static ArchCondition<JavaClass> reachNoClassOf(String[] packages, String... doors) {
        List<String> prefixes = java.util.Arrays.stream(packages).map(p -> p.replace("..", ".")).toList();
        List<String> closed = List.of(doors);
        return new ArchCondition<>("reach no class of " + String.join(", ", packages) + " through any chain of"
                + " dependencies (not followed through " + String.join(", ", doors) + ")") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                Map<JavaClass, Dependency> cameBy = new HashMap<>();
                Deque<JavaClass> next = new ArrayDeque<>(List.of(origin));
                cameBy.put(origin, null);
                while (!next.isEmpty()) {
                    for (Dependency d : next.poll().getDirectDependenciesFromSelf()) {
                        JavaClass target = d.getTargetClass().isArray() ? d.getTargetClass().getBaseComponentType()
                                : d.getTargetClass();
                        if (prefixes.stream().anyMatch(p -> target.getName().startsWith(p))) {
                            events.add(SimpleConditionEvent.violated(origin, origin.getName() + " reaches "
                                    + target.getName() + ":\n" + chain(cameBy, d)));
                            return;
                        }
                        if (!cameBy.containsKey(target)) {
                            cameBy.put(target, d);
                            if (!closed.contains(target.getName())) {
                                next.add(target);
                            }
                        }
                    }
                }
            }
        };
    }

    /** The dependencies that led to {@code last}, first to last, one line each. */
    private static String chain(Map<JavaClass, Dependency> cameBy, Dependency last) {
        LinkedList<String> lines = new LinkedList<>();
        for (Dependency d = last; d != null; d = cameBy.get(d.getOriginClass())) {
            lines.addFirst("  " + d.getDescription());
        }
        return String.join("\n", lines);
    }

    /** A call of an Operator method whose parameters or result involve an ND4J type (INDArray). */
    private static boolean callsOperatorWithNd4j(JavaMethodCall call) {
        if (!call.getTargetOwner().isAssignableTo(Operator.class)) {
            return false;
        }
        JavaMethod method = call.getTarget().resolveMember().orElse(null);
        if (method == null) {
            return true; // not known: not one of the metadata methods the front end may call
        }
        List<JavaType> types = new ArrayList<>(method.getParameterTypes());
        types.add(method.getReturnType());
        return types.stream().flatMap(t -> t.getAllInvolvedRawTypes().stream())
                .anyMatch(c -> c.getName().startsWith("org.nd4j.") || c.getName().startsWith("org.bytedeco."));
    }

    /**
     * The networks GradCheck.ofNetwork takes, beside INDArray the one library type the public surface shows: a
     * network check is of a network, and whoever has one has DL4J or SameDiff on the class path already.
     */
    private static final java.util.Set<String> NETWORKS = java.util.Set.of(
            "org.deeplearning4j.nn.multilayer.MultiLayerNetwork", "org.deeplearning4j.nn.graph.ComputationGraph",
            "org.nd4j.autodiff.samediff.SameDiff");

    private static DescribedPredicate<JavaClass> publicSurface() {
        return DescribedPredicate.describe("in the public surface (api, spi, result)",
                c -> c.getPackageName().startsWith("dev.gradcheck.api")
                        || c.getPackageName().startsWith("dev.gradcheck.spi")
                        || c.getPackageName().startsWith("dev.gradcheck.result"));
    }

    private static ArchCondition<JavaCodeUnit> mentionOnlyPublicTypes() {
        return new ArchCondition<>("take and return only JDK, INDArray, network and public-surface types") {
            @Override
            public void check(JavaCodeUnit method, ConditionEvents events) {
                List<JavaType> types = new ArrayList<>(method.getParameterTypes());
                types.add(method.getReturnType());
                for (JavaType type : types) {
                    for (JavaClass raw : type.getAllInvolvedRawTypes()) {
                        if (!allowed(raw)) {
                            events.add(SimpleConditionEvent.violated(method, method.getFullName() + " exposes "
                                    + raw.getName()));
                        }
                    }
                }
            }
        };
    }

    private static boolean allowed(JavaClass type) {
        String pkg = type.getPackageName();
        return type.isPrimitive() || type.isArray() && allowed(type.getBaseComponentType()) || pkg.startsWith("java.")
                || pkg.equals("org.nd4j.linalg.api.ndarray") || NETWORKS.contains(type.getName())
                || pkg.equals("dev.gradcheck.api") || pkg.equals("dev.gradcheck.spi")
                || pkg.equals("dev.gradcheck.result");
    }
}
