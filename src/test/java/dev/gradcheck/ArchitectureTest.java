package dev.gradcheck;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaType;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The package rules docs/ARCHITECTURE.md states, held on the main classes: ND4J stays in op/, check/, backend/
 * (and bench/, api/); result/ is a leaf; check/ knows nothing of how checks are dispatched or shown; api/, spi/
 * and result/ are the public surface and expose nothing else; no two packages depend on each other.
 */
@AnalyzeClasses(packages = "dev.gradcheck",
        importOptions = {ImportOption.DoNotIncludeTests.class, ImportOption.DoNotIncludeJars.class})
class ArchitectureTest {

    private static final String[] ND4J = {"org.nd4j..", "org.bytedeco.."};

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
     * line's optional dependencies, so a user's test class path can go without them.
     */
    @ArchTest
    static final ArchRule theLibraryNeedsNoCliDependency = noClasses()
            .that().resideInAnyPackage("dev.gradcheck.api..", "dev.gradcheck.spi..", "dev.gradcheck.result..")
            .should().transitivelyDependOnClassesThat().resideInAnyPackage("picocli..", "org.jline..",
                    "com.fasterxml.jackson.dataformat.yaml..", "org.yaml.snakeyaml..", "org.slf4j.impl..")
            .because("picocli, JLine, the YAML reader and slf4j-simple are optional: they do not follow the library"
                    + " into a user's project (examples/library-test)");

    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("dev.gradcheck.(*)..").should().beFreeOfCycles();

    private static DescribedPredicate<JavaClass> publicSurface() {
        return DescribedPredicate.describe("in the public surface (api, spi, result)",
                c -> c.getPackageName().startsWith("dev.gradcheck.api")
                        || c.getPackageName().startsWith("dev.gradcheck.spi")
                        || c.getPackageName().startsWith("dev.gradcheck.result"));
    }

    private static ArchCondition<JavaCodeUnit> mentionOnlyPublicTypes() {
        return new ArchCondition<>("take and return only JDK, INDArray and public-surface types") {
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
                || pkg.equals("org.nd4j.linalg.api.ndarray") || pkg.equals("dev.gradcheck.api")
                || pkg.equals("dev.gradcheck.spi") || pkg.equals("dev.gradcheck.result");
    }
}
