package dev.orderly.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClosestNameTest {

    @Test
    void editsCountInsertionsDeletionsAndSubstitutionsIgnoringCase() {
        assertEquals(0, ClosestName.edits("Sweep", "sweep"));
        assertEquals(1, ClosestName.edits("swep", "sweep"));
        assertEquals(1, ClosestName.edits("--segmnts", "--segments"));
        assertEquals(2, ClosestName.edits("--sgements", "--segments"));
        assertEquals(3, ClosestName.edits("kitten", "sitting"));
        assertEquals(5, ClosestName.edits("", "fleet"));
    }

    @Test
    void theClosestNameWithinTheLimitIsFoundAndAFarOneIsNot() {
        List<String> commands = List.of("sweep", "fleet", "bench");
        assertEquals(Optional.of("sweep"), ClosestName.among("swep", commands, 3));
        assertEquals(Optional.of("bench"), ClosestName.among("bnch", commands, 3));
        assertEquals(Optional.empty(), ClosestName.among("deploy", commands, 3));
        assertEquals(Optional.empty(), ClosestName.among("swep", List.of(), 3));
    }
    /** Found: with no limit ({@code Integer.MAX_VALUE}) and no names, it threw NullPointerException from Optional.of. */
    @Test
    void bugNoNamesGiveNothingEvenWithNoLimit() {
        assertEquals(Optional.empty(), ClosestName.among("swep", List.of(), Integer.MAX_VALUE));
        assertEquals(Optional.of("sweep"), ClosestName.among("anything at all", List.of("sweep"), Integer.MAX_VALUE));
    }
}
