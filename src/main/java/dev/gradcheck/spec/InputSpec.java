package dev.gradcheck.spec;

/** One named input of an op-spec. */
public record InputSpec(String name, long[] shape, DType dtype, Init init, SourcePos pos) {

    public long length() {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }
}
